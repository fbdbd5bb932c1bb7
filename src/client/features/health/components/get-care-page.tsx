import { Brain, Compass, FlaskConical, Hospital, type LucideIcon, Pill, Stethoscope, Video } from 'lucide-react';
import { paths } from '#shared/paths';
import { ActionTile } from '../../../components/action-tile';
import { BackActions } from '../../../components/back-actions';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { t } from '../../../lib/i18n';

const m = t.members.getCare;

const options: { key: keyof typeof m.options; to: string; icon: LucideIcon }[] = [
  { key: 'virtualUrgentCare', to: paths.virtualUrgentCare, icon: Video },
  { key: 'virtualPrimaryCare', to: paths.virtualPrimaryCare, icon: Stethoscope },
  { key: 'inPersonCare', to: paths.inPersonCare, icon: Hospital },
  { key: 'questSelectLabs', to: paths.questSelectLabs, icon: FlaskConical },
  { key: 'virtualTherapy', to: paths.virtualTherapy, icon: Brain },
  { key: 'careNavigator', to: paths.careNavigator, icon: Compass },
  { key: 'prescriptions', to: paths.prescriptions, icon: Pill },
];

/** /health/get-care: seven ways to get care, each to its own screen. Home, and Go Back to Health. */
export function GetCarePage() {
  return (
    <PageLayout title={m.title} actions={<BackActions backTo={paths.health} />}>
      <PageIntro title={m.title}>{m.intro}</PageIntro>
      <ul className="flex flex-col gap-3">
        {options.map(({ key, to, icon }) => (
          <li key={key} className="flex flex-col">
            <ActionTile to={to} icon={icon} title={m.options[key].title} description={m.options[key].body} />
          </li>
        ))}
      </ul>
      <p className="text-center text-sm font-medium text-muted">{m.emergency}</p>
    </PageLayout>
  );
}

export default GetCarePage;

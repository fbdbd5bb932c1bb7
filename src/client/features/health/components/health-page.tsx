import { Activity, Stethoscope } from 'lucide-react';
import { paths } from '#shared/paths';
import { ActionTile } from '../../../components/action-tile';
import { BackActions } from '../../../components/back-actions';
import { HipaaNote } from '../../../components/hipaa-note';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { t } from '../../../lib/i18n';

const m = t.members.health;

/** /health: Health Activities and Get Care, plus the HIPAA note. Home and Go Back both go home. */
export function HealthPage() {
  return (
    <PageLayout title={m.title} actions={<BackActions backTo={paths.home} />}>
      <PageIntro title={m.heading}>{m.intro}</PageIntro>
      <ActionTile to={paths.healthActivities} icon={Activity} title={m.activitiesCard.title} description={m.activitiesCard.body} />
      <ActionTile to={paths.getCare} icon={Stethoscope} title={m.getCareCard.title} description={m.getCareCard.body} />
      <HipaaNote>{m.hipaa}</HipaaNote>
    </PageLayout>
  );
}

export default HealthPage;

import { ClipboardList, ScanHeart, Sun } from 'lucide-react';
import { paths } from '#shared/paths';
import { ActionTile } from '../../../components/action-tile';
import { BackActions } from '../../../components/back-actions';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { t } from '../../../lib/i18n';
import { useConfig } from '../../config/use-config';

const m = t.members.activities;

/**
 * /health/activities: the daily wellness programme and Vital Scan (external, new tab), and
 * Plan of Care, which only logs (spec, Health activities); its placeholder route is reached
 * from the Quick Access and voice shortcuts.
 */
export function HealthActivitiesPage() {
  const { wellnessProgramUrl, vitalScanUrl } = useConfig();
  return (
    <PageLayout title={m.title} actions={<BackActions backTo={paths.health} home={false} />}>
      <PageIntro title={m.title}>{m.intro}</PageIntro>
      <ActionTile external to={wellnessProgramUrl} icon={Sun} title={m.wellness.title} description={m.wellness.body} />
      <ActionTile external to={vitalScanUrl} icon={ScanHeart} title={m.vitalScan.title} description={m.vitalScan.body} />
      <ActionTile onSelect={() => console.info('Plan of Care selected')} icon={ClipboardList} title={m.planOfCare.title} description={m.planOfCare.body} />
    </PageLayout>
  );
}

export default HealthActivitiesPage;

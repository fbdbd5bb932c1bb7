import { paths } from '#shared/paths';
import { BackActions } from '../../../components/back-actions';
import { OfflineNote } from '../../../components/offline-note';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { t } from '../../../lib/i18n';
import { useSessions } from '../api/get-sessions';
import { ChangePasswordCard } from './change-password-card';
import { SignedInDevicesCard } from './signed-in-devices';
import { TwoStepSignInCard } from './two-step-sign-in';

const s = t.account.security;

/** /profile/security: change password, two-step sign-in, signed-in devices. */
export function SecurityPage() {
  // Offline, the devices list is the last one fetched: the note says from when.
  const sessions = useSessions();
  return (
    <PageLayout title={s.title} actions={<BackActions backTo={paths.profile} home={false} />}>
      <PageIntro title={s.title}>{s.intro}</PageIntro>
      <OfflineNote updatedAt={sessions.data ? sessions.dataUpdatedAt : undefined} />
      <ChangePasswordCard />
      <TwoStepSignInCard />
      <SignedInDevicesCard />
    </PageLayout>
  );
}

export default SecurityPage;

import { Suspense, lazy } from 'react';
import { VerifyEmailBanner } from '../features/account/components/verify-email-banner';
import { useAuth } from '../features/auth/auth-context';
import { HomePage } from '../features/members/components/home-page';
import { VoiceSearch } from '../features/voice/components/voice-search';

// The popup (its dialog, and zod to check it) loads only when sign-in delivered one: most
// visits to Home have none and do not download it.
const LoginPopup = lazy(() => import('../features/popups/components/login-popup').then((m) => ({ default: m.LoginPopup })));

function LoginPopupOnDemand() {
  const { loginPopup } = useAuth();
  if (loginPopup === null || loginPopup === undefined) return null;
  return (
    <Suspense fallback={null}>
      <LoginPopup />
    </Suspense>
  );
}

/** /home: the members' Home with the voice block and the login popup composed in. */
export default function HomeRoute() {
  return <HomePage banner={<VerifyEmailBanner />} voiceSearch={<VoiceSearch />} loginPopup={<LoginPopupOnDemand />} />;
}

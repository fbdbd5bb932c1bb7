import { VerifyEmailBanner } from '../features/account/components/verify-email-banner';
import { HomePage } from '../features/members/components/home-page';
import { LoginPopup } from '../features/popups/components/login-popup';
import { VoiceSearch } from '../features/voice/components/voice-search';

/** /home: the members' Home with the voice block and the login popup composed in. */
export default function HomeRoute() {
  return <HomePage banner={<VerifyEmailBanner />} voiceSearch={<VoiceSearch />} loginPopup={<LoginPopup />} />;
}

import { FileText, ShieldCheck } from 'lucide-react';
import { paths } from '#shared/paths';
import { localIsoDate } from '#shared/dates';
import { ActionTile } from '../../../components/action-tile';
import { BackActions } from '../../../components/back-actions';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { t } from '../../../lib/i18n';
import { LANGUAGE_LOCALES } from '#shared/i18n/languages';
import { language } from '../../../lib/language';

const m = t.members.information;

/** Today's date as the member reads it, e.g. "March 2, 2026" (spec: last-updated = today). */
export function formatToday(now: Date, locale = LANGUAGE_LOCALES[language]): string {
  return now.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
}

/** /information: Terms of Service and Privacy Policy; Go Back home. */
export function InformationPage() {
  const now = new Date();
  return (
    <PageLayout title={m.title} actions={<BackActions backTo={paths.home} home={false} />}>
      <PageIntro title={m.heading}>{m.intro}</PageIntro>
      <ActionTile to={paths.terms} icon={FileText} title={m.terms.title} description={m.terms.body} />
      <ActionTile to={paths.privacy} icon={ShieldCheck} title={m.privacy.title} description={m.privacy.body} />
      <p className="text-center text-sm text-muted">
        <time dateTime={localIsoDate(now)}>{m.lastUpdated(formatToday(now))}</time>
      </p>
    </PageLayout>
  );
}

export default InformationPage;

import { useQueryClient } from '@tanstack/react-query';
import { LogIn, ScanLine } from 'lucide-react';
import { Link } from 'react-router';
import { cardUi } from '../../../lib/messages/card-ui';
import { paths } from '#shared/paths';
import type { IdCardsResponse } from '#shared/schemas/cards';
import { BackActions } from '../../../components/back-actions';
import { HipaaNote } from '../../../components/hipaa-note';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { removeCards } from '../../../lib/card-store';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useConfig } from '../../config/use-config';
import { type CardsResult, isConnectionError, useCards, useSavedCards } from '../api/get-cards';
import { type Brand, IdCardView } from './id-card-view';
import { KeepCardsSwitch } from './keep-cards-switch';
import { readKeepCardsPreference } from '../../../lib/keep-cards';
import { queryKeys } from '../../../lib/query-keys';
import { format } from '../../../lib/language';

const m = t.members.idCard;
const p = cardUi.page;

function useBrand(): Brand {
  const { brandName, brandLogoUrl, brandPrimaryColor } = useConfig();
  return { name: brandName, logoUrl: brandLogoUrl, color: brandPrimaryColor };
}

function CardList({ data }: { data: IdCardsResponse }) {
  const brand = useBrand();
  const member = data.cards.filter((card) => card.kind === 'member');
  const family = data.cards.filter((card) => card.kind === 'dependant');
  return (
    <>
      {member.map((card) => (
        <IdCardView key={card.id} card={card} details={data.details} brand={brand} label={p.memberCardLabel} />
      ))}
      {family.length > 0 && (
        <>
          <h2 className="mt-2 text-lg font-bold text-ink">{p.familyHeading}</h2>
          {family.map((card) => (
            <IdCardView key={card.id} card={card} details={data.details} brand={brand} label={p.dependantCardLabel(card.name)} />
          ))}
        </>
      )}
    </>
  );
}

function CardSkeleton() {
  return (
    <div role="status" aria-label={p.memberCardLabel} aria-busy className="aspect-[1.588] w-full">
      <Skeleton className="size-full rounded-2xl" />
    </div>
  );
}

function SignedInCards({ userId }: { userId: string }) {
  const cards = useCards(userId);
  const result: CardsResult | undefined = cards.data;
  return (
    <>
      {result?.savedAt && <Alert variant="info">{t.offline.showingFrom(format.dateTime(result.savedAt))}</Alert>}
      {cards.isError && !result && (
        <Alert>
          {isConnectionError(cards.error) ? p.noCardsOffline : m.loadFailed}{' '}
          <button type="button" className="font-semibold underline" onClick={() => void cards.refetch()}>
            {p.retry}
          </button>
        </Alert>
      )}
      {result ? <CardList data={result.data} /> : cards.isPending && <CardSkeleton />}
      {/* Shown once the cards are in (or could not be): loading them may turn another member's
          choice off, and a switch that changed under the member's finger would lose their choice. */}
      {!cards.isPending && <KeepCardsSwitch key={result ? 'loaded' : 'failed'} />}
    </>
  );
}

/** Signed out: only the cards the member chose to keep on this device. */
function KeptCards() {
  const queryClient = useQueryClient();
  const saved = useSavedCards(readKeepCardsPreference());
  const turnedOff = async (on: boolean) => {
    if (on) return;
    await removeCards();
    await queryClient.invalidateQueries({ queryKey: queryKeys.cards.saved });
  };
  const result = saved.data;
  return (
    <>
      {result ? (
        <>
          <Alert variant="info">{p.savedCardsFrom(format.dateTime(result.savedAt ?? new Date().toISOString()))}</Alert>
          <CardList data={result.data} />
        </>
      ) : saved.isPending && saved.fetchStatus !== 'idle' ? (
        <CardSkeleton />
      ) : (
        <Alert variant="info">{p.noSavedCards}</Alert>
      )}
      <KeepCardsSwitch onChange={(on) => void turnedOff(on)} />
    </>
  );
}

/**
 * /id-card: the member's card and one per family member, each with a front and a back, Share
 * and Download. Signed out (only with "Keep my cards on this device"), the saved cards.
 */
export function IdCardPage() {
  const { user, isAuthenticated } = useAuth();
  const signedIn = isAuthenticated && user !== null;
  return (
    <PageLayout
      title={m.title}
      actions={
        signedIn ? (
          <BackActions backTo={paths.home} home={false} />
        ) : (
          <Button className="flex-1" asChild>
            <Link to={paths.login}>
              <LogIn aria-hidden />
              {p.signIn}
            </Link>
          </Button>
        )
      }
    >
      <h1 className="text-2xl font-bold text-ink">{m.title}</h1>
      <p className="text-sm text-muted">{p.intro}</p>
      {signedIn ? <SignedInCards userId={user.id} /> : <KeptCards />}
      <HipaaNote>{m.hipaa}</HipaaNote>
      <Link to={paths.verifyCard} className="inline-flex min-h-12 items-center gap-2 self-start text-sm font-semibold text-brand-ink underline-offset-4 hover:underline">
        <ScanLine className="size-5" aria-hidden />
        {p.verifyLink}
      </Link>
    </PageLayout>
  );
}

export default IdCardPage;

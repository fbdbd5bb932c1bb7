import { ArrowLeft, Download } from 'lucide-react';
import { Suspense, lazy } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths';
import type { AdminPopupListItem } from '#shared/schemas/popups';
import { ErrorState, LoadingState, NotFoundState } from '../../../components/load-states';
import { PageLayout } from '../../../components/page-layout';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { useAdminPopups } from '../api/get-admin-popups';
import { usePopupResults } from '../api/get-popup-results';
import { PopupStatusBadge } from './popup-status-badge';
import { type ResultDay, completionRate, formatDay, formatRate, formatShortDay, resultsCsv, resultsFileName, totals } from '../popup-results';
import { format } from '../../../lib/language';

const a = t.popups.admin;
const r = a.results;

/** The chart library loads with this chart only (its own chunk), after the figures are on screen. */
const PopupResultsChart = lazy(() => import('./popup-results-chart'));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const count = (n: number) => format.number(n);

function Tile({ label, value, hint, testId }: { label: string; value: string; hint?: string | undefined; testId: string }) {
  return (
    <div className="flex flex-col-reverse items-center gap-1 rounded-2xl border border-line bg-surface px-2 py-3 text-center shadow-sm">
      <dt className="text-xs font-medium text-muted">
        {label}
        {hint && <span className="mt-0.5 block text-[11px] font-normal">{hint}</span>}
      </dt>
      <dd className="text-2xl font-bold whitespace-nowrap text-ink tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Builds the daily figures' CSV in the browser and saves it. */
function downloadCsv(days: readonly ResultDay[], title: string) {
  const url = URL.createObjectURL(new Blob([resultsCsv(days)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = resultsFileName(title);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The daily figures for everyone: a real table, with the totals in its footer. */
function ResultsTable({ days }: { days: readonly ResultDay[] }) {
  const sum = totals(days);
  // One year: "Nov 20" fits a phone; the year goes in the caption.
  const years = new Set(days.map((d) => d.date.slice(0, 4)));
  const oneYear = years.size === 1 ? [...years][0] : undefined;
  const cell = 'px-2 py-2 text-right tabular-nums';
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="pb-2 text-left text-base font-bold text-ink">{oneYear ? r.tableCaptionYear(oneYear) : r.tableCaption}</caption>
      <thead>
        <tr className="border-b border-line text-muted">
          <th scope="col" className="px-2 py-2 text-left font-semibold">
            {r.date}
          </th>
          <th scope="col" className="px-2 py-2 text-right font-semibold">
            {r.shows}
          </th>
          <th scope="col" className="px-2 py-2 text-right font-semibold">
            {r.snoozes}
          </th>
          <th scope="col" className="px-2 py-2 text-right font-semibold">
            {r.completions}
          </th>
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.date} className="border-b border-line/60">
            <th scope="row" className="px-2 py-2 text-left font-medium whitespace-nowrap text-ink">
              <time dateTime={d.date}>{oneYear ? formatShortDay(d.date) : formatDay(d.date)}</time>
            </th>
            <td className={cell}>{count(d.shows)}</td>
            <td className={cell}>{count(d.snoozes)}</td>
            <td className={cell}>{count(d.completions)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="font-bold text-ink">
          <th scope="row" className="px-2 py-2 text-left">
            {r.total}
          </th>
          <td className={cell}>{count(sum.shows)}</td>
          <td className={cell}>{count(sum.snoozes)}</td>
          <td className={cell}>{count(sum.completions)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function Results({ popup, days, audienceSize }: { popup: AdminPopupListItem | undefined; days: readonly ResultDay[]; audienceSize: number }) {
  const sum = totals(days);
  const rate = completionRate(sum.completions, sum.shows);
  const recorded = sum.shows + sum.snoozes + sum.completions > 0;
  const title = popup?.title ?? r.title;
  return (
    <>
      <header className="flex flex-col gap-2">
        <p className="text-sm font-semibold text-muted">{r.title}</p>
        <h1 className="text-2xl font-bold break-words">{title}</h1>
        {popup && (
          <div className="flex flex-wrap gap-2">
            <Badge variant={popup.isActive ? 'success' : 'neutral'}>{popup.isActive ? a.active : a.inactive}</Badge>
            <PopupStatusBadge status={popup.status} isActive={popup.isActive} />
          </div>
        )}
      </header>
      <dl className="grid grid-cols-3 gap-2">
        <Tile label={r.shows} value={count(sum.shows)} testId="results-shows" />
        <Tile label={r.snoozes} value={count(sum.snoozes)} testId="results-snoozes" />
        <Tile label={r.completions} value={count(sum.completions)} testId="results-completions" />
      </dl>
      <dl className="grid grid-cols-2 gap-2">
        <Tile label={r.completionRate} hint={rate === null ? r.noShows : r.completionRateHint} value={formatRate(rate, '—')} testId="results-rate" />
        <Tile label={r.audienceSize} value={count(audienceSize)} testId="results-audience" />
      </dl>
      <Card className="flex flex-col gap-4 p-4" aria-labelledby="results-per-day">
        <div className="flex flex-col gap-1">
          <h2 id="results-per-day" className="text-lg font-bold">
            {r.chartTitle}
          </h2>
          {popup && <p className="text-sm text-muted">{r.daysIn(popup.timezone)}</p>}
        </div>
        {/* Nothing recorded: say so (the table still lists the days, all zero); no empty chart. */}
        {recorded ? (
          <Suspense
            fallback={
              <div role="status">
                <span className="sr-only">{r.chartLoading}</span>
                <Skeleton className="h-60 w-full" />
              </div>
            }
          >
            <PopupResultsChart days={days} />
          </Suspense>
        ) : (
          <p className="rounded-xl bg-canvas px-4 py-6 text-center text-sm text-muted">{r.empty}</p>
        )}
        {days.length > 0 && <ResultsTable days={days} />}
        <Button variant="secondary" onClick={() => downloadCsv(days, title)}>
          <Download aria-hidden />
          {r.downloadCsv}
        </Button>
      </Card>
    </>
  );
}

/** /admin/popups/{id}: how a popup did, day by day (issue 12). */
export function PopupResultsPage() {
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const results = usePopupResults(id, valid);
  // The title, schedule and status: the list the console already holds (no search, default sort).
  const list = useAdminPopups({});
  const popup = list.data?.popups.find((p) => p.id === id);

  let content;
  let stateHasBack = true;
  if (!valid || (results.isError && results.error instanceof ApiError && results.error.code === 'not_found')) {
    content = <NotFoundState message={r.notFound} backTo={paths.adminPopups} backLabel={r.backToPopups} />;
  } else if (results.isPending) {
    stateHasBack = false;
    content = <LoadingState label={r.loading} rows={3} rowClassName="h-24" />;
  } else if (results.isError || !results.data) {
    content = <ErrorState message={r.loadError(serverMessageOr(results.error, results.error?.message ?? ''))} backTo={paths.adminPopups} backLabel={r.backToPopups} />;
  } else {
    stateHasBack = false;
    content = <Results popup={popup} days={results.data.days} audienceSize={results.data.audienceSize} />;
  }

  return (
    <PageLayout
      title={popup?.title ?? r.title}
      actions={
        stateHasBack ? undefined : (
          <Button variant="secondary" className="flex-1" asChild>
            <Link to={paths.adminPopups}>
              <ArrowLeft aria-hidden />
              {r.backToPopups}
            </Link>
          </Button>
        )
      }
    >
      {content}
    </PageLayout>
  );
}

export default PopupResultsPage;

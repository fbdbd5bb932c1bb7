import { Building2, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { EMPLOYER_SORT_FIELDS, type EmployerSortField, type EmployerSummary } from '#shared/schemas/admin';
import { ErrorState, LoadingState } from '../../../components/load-states';
import { PageLayout } from '../../../components/page-layout';
import { SearchBox } from '../../../components/search-box';
import { SortControls } from '../../../components/sort-controls';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { t } from '../../../lib/i18n';
import { chooseSortField, toggleSortOrder, useUrlListState } from '../../../lib/list-state';
import { employerFooter, employerListQuery, readEmployerListState, writeEmployerListState } from '../admin-list-state';
import { errorMessage } from '../api/admin-errors';
import { useEmployers } from '../api/get-employers';
import { AddEmployerDialog } from './add-employer-dialog';
import { format } from '../../../lib/language';

const e = t.admin.employers;
const sortLabels: Record<EmployerSortField, string> = { name: e.sortName, lastActivity: e.sortLastActivity };
const sortOptions = EMPLOYER_SORT_FIELDS.map((value) => ({ value, label: sortLabels[value] }));

function EmployerCard({ employer }: { employer: EmployerSummary }) {
  return (
    <li>
      <Link
        to={paths.adminEmployer(employer.id)}
        className="flex items-center gap-3 rounded-2xl border border-line bg-surface p-4 shadow-sm hover:border-brand/50 hover:bg-canvas"
        data-testid="employer-card"
      >
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <h2 className="text-lg leading-snug font-bold break-words text-ink">{employer.name}</h2>
          <dl className="flex flex-col gap-1 text-sm">
            <div>
              <dt className="text-xs text-muted">{e.companyId}</dt>
              <dd className="font-mono text-xs break-all text-ink">{employer.id}</dd>
            </div>
            <div className="flex flex-wrap gap-x-1">
              <dt className="text-muted">{e.lastActivity}:</dt>
              <dd className="font-medium text-ink">{employer.lastActivity ? format.dateTime(employer.lastActivity) : e.never}</dd>
            </div>
          </dl>
          <ul className="flex flex-wrap gap-1.5" aria-label={e.counts}>
            <li>
              <Badge variant="brand">{e.employees(employer.employees)}</Badge>
            </li>
            <li>
              <Badge variant="success">{e.participants(employer.participants)}</Badge>
            </li>
            <li>
              <Badge variant="neutral">{e.family(employer.familyMembers)}</Badge>
            </li>
          </ul>
        </div>
        <ChevronRight className="size-5 shrink-0 text-muted" aria-hidden />
      </Link>
    </li>
  );
}

/** /admin/employers: Employer Management (spec section 2). */
export function AdminEmployersPage() {
  const { state, setState, commitSearch } = useUrlListState(readEmployerListState, writeEmployerListState);
  const list = useEmployers(employerListQuery(state));

  const employers = list.data?.employers ?? [];
  let body;
  if (list.isPending) {
    body = <LoadingState label={e.loading} rows={4} rowClassName="h-36" />;
  } else if (list.isError) {
    body = <ErrorState message={e.loadError(errorMessage(list.error))} backTo={paths.home} backLabel={e.backToHome} home />;
  } else {
    body = (
      <>
        {employers.length === 0 ? (
          <Card className="flex flex-col items-center gap-2 py-10 text-center">
            <Building2 className="size-8 text-muted" aria-hidden />
            <p className="text-lg font-semibold">{e.empty}</p>
            {state.search.trim() && <p className="text-sm text-muted">{e.emptySearchHint}</p>}
          </Card>
        ) : (
          <ul className="flex flex-col gap-3" aria-busy={list.isFetching} aria-label={t.admin.nav.employers}>
            {employers.map((employer) => (
              <EmployerCard key={employer.id} employer={employer} />
            ))}
          </ul>
        )}
        <p className="text-center text-sm text-muted" role="status">
          {employerFooter(employers.length, state.search)}
        </p>
      </>
    );
  }

  return (
    <PageLayout title={e.title}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="min-w-0 text-2xl font-bold">{e.title}</h1>
        <AddEmployerDialog />
      </div>
      <div className="flex flex-col gap-3">
        <SearchBox value={state.search} onCommit={commitSearch} label={e.searchLabel} placeholder={e.searchPlaceholder} />
        <div className="flex flex-wrap gap-2">
          <SortControls
            label={e.sortByLabel}
            options={sortOptions}
            sortBy={state.sortBy}
            sortOrder={state.sortOrder}
            onSortBy={(field) => setState(chooseSortField(state, field))}
            onToggleOrder={() => setState(toggleSortOrder(state))}
          />
        </div>
      </div>
      {body}
    </PageLayout>
  );
}

export default AdminEmployersPage;

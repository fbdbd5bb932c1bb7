import { ArrowLeft, ChevronLeft, ChevronRight, Users } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths';
import type { EmployeeListItem, EmployeeStatus } from '#shared/schemas/admin';
import { ErrorState, LoadingState, NotFoundState } from '../../../components/load-states';
import { PageLayout } from '../../../components/page-layout';
import { SearchBox } from '../../../components/search-box';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/select';
import { t } from '../../../lib/i18n';
import { useListTop, useUrlListState } from '../../../lib/list-state';
import { employeeListQuery, isRecordId, readEmployeeListState, withStatus, writeEmployeeListState } from '../admin-list-state';
import { errorMessage, isNotFound } from '../api/admin-errors';
import { useEmployees } from '../api/get-employees';
import { useEmployer } from '../api/get-employer';
import { EmployerCardDetailsSection } from './employer-card-details';
import { BreakableText } from './breakable-text';
import { EnrolmentPanel } from './enrolment-panel';
import { format } from '../../../lib/language';

const d = t.admin.employer;
const statusOptions = [
  { value: 'all', label: d.statusAll },
  { value: 'verified', label: d.statusVerified },
  { value: 'enrolled', label: d.statusEnrolled },
  { value: 'not_enrolled', label: d.statusNotEnrolled },
];

function StatTile({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col-reverse items-center gap-1 rounded-2xl border border-line bg-surface px-2 py-3 text-center shadow-sm">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="text-2xl font-bold text-ink tabular-nums">{format.number(value)}</dd>
    </div>
  );
}

function EmployeeRow({ employee }: { employee: EmployeeListItem }) {
  const name = `${employee.firstName} ${employee.lastName}`;
  return (
    <li>
      <Link
        to={paths.adminEmployee(employee.id)}
        className="flex items-center gap-3 rounded-2xl border border-line bg-surface p-4 shadow-sm hover:border-brand/50 hover:bg-canvas"
        data-testid="employee-row"
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <h3 className="font-bold break-words text-ink">{name}</h3>
          <p className="text-sm break-words text-ink">
            <BreakableText text={employee.email} />
          </p>
          <dl className="flex flex-col text-sm">
            <div className="flex gap-1">
              <dt className="text-muted">{d.lhmpId}:</dt>
              <dd className="font-medium text-ink">{employee.lhmpId}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="text-muted">{d.lastLogin}:</dt>
              <dd className="font-medium text-ink">{employee.lastLogin ? format.dateTime(employee.lastLogin) : d.never}</dd>
            </div>
          </dl>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant={employee.emailVerified ? 'success' : 'warning'}>{employee.emailVerified ? d.verified : d.unverified}</Badge>
            {employee.enrolled && <Badge variant="brand">{d.enrolled}</Badge>}
            {employee.familyMemberCount > 0 && <Badge variant="neutral">{d.family(employee.familyMemberCount)}</Badge>}
          </div>
        </div>
        <ChevronRight className="size-5 shrink-0 text-muted" aria-hidden />
      </Link>
    </li>
  );
}

/** `capped`: a short search counted only so far; "more than N", and Next stays open past the last counted page. */
function Pager({ page, totalPages, total, capped, onPage }: { page: number; totalPages: number; total: number; capped: boolean; onPage: (page: number) => void }) {
  return (
    <nav aria-label={d.pagination} className="flex items-center justify-between gap-2">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(Math.min(page - 1, totalPages))}>
        <ChevronLeft aria-hidden />
        {d.previous}
      </Button>
      <p className="text-center text-sm text-muted" aria-live="polite">
        <span className="font-semibold text-ink">{capped ? d.pageOfAtLeast(page, totalPages) : d.page(page, totalPages)}</span>{' '}
        {capped ? d.totalMoreThan(total) : d.total(total)}
      </p>
      <Button variant="secondary" size="sm" disabled={page >= totalPages && !capped} onClick={() => onPage(page + 1)}>
        {d.next}
        <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}

function Employees({ companyId }: { companyId: string }) {
  const { state, setState, commitSearch } = useUrlListState(readEmployeeListState, writeEmployeeListState);
  const list = useEmployees(companyId, employeeListQuery(state));
  const { heading, toListTop } = useListTop(!list.isPending && !list.isPlaceholderData);
  const filtered = Boolean(state.search.trim() || state.status);

  const employees = list.data?.employees ?? [];
  const pagination = list.data?.pagination;
  let body;
  if (list.isPending) {
    body = <LoadingState label={d.loadingEmployees} rows={4} rowClassName="h-36" />;
  } else if (list.isError) {
    body = <ErrorState message={d.loadError(errorMessage(list.error))} backTo={paths.adminEmployers} backLabel={d.backToEmployers} />;
  } else {
    body = (
      <>
        {employees.length === 0 ? (
          <Card className="flex flex-col items-center gap-2 py-8 text-center">
            <Users className="size-8 text-muted" aria-hidden />
            <p className="text-lg font-semibold">{d.empty}</p>
            {(state.search.trim() || state.status) && <p className="text-sm text-muted">{d.emptySearchHint}</p>}
          </Card>
        ) : (
          <ul className="flex flex-col gap-3" aria-busy={list.isFetching} aria-label={d.employeeList}>
            {employees.map((employee) => (
              <EmployeeRow key={employee.id} employee={employee} />
            ))}
          </ul>
        )}
        {pagination && (pagination.totalPages > 1 || pagination.totalIsCapped) && (
          <Pager
            page={state.page}
            totalPages={pagination.totalPages}
            total={pagination.total}
            capped={pagination.totalIsCapped}
            onPage={(page) => {
              setState({ ...state, page });
              toListTop();
            }}
          />
        )}
      </>
    );
  }

  return (
    <section className="flex flex-col gap-3" aria-labelledby="employees-title">
      <h2 ref={heading} id="employees-title" tabIndex={-1} className="text-lg font-bold">
        {d.employeeList}
      </h2>
      <SearchBox value={state.search} onCommit={commitSearch} label={d.searchLabel} placeholder={d.searchPlaceholder} />
      <Select
        aria-label={d.statusLabel}
        options={statusOptions}
        value={state.status || 'all'}
        onValueChange={(v) => setState(withStatus(state, v === 'all' ? '' : (v as EmployeeStatus)))}
      />
      {filtered && pagination && pagination.total > 0 && (
        <p className="text-sm font-semibold text-ink" role="status" data-testid="employee-count">
          {pagination.totalIsCapped ? d.matchingCountMoreThan(pagination.total) : d.matchingCount(pagination.total)}
        </p>
      )}
      {body}
    </section>
  );
}

/** /admin/employers/{companyId}: one employer, its figures and its employees (spec section 2). */
export function AdminEmployerPage() {
  const { companyId = '' } = useParams();
  const valid = isRecordId(companyId);
  const employer = useEmployer(companyId, valid);

  let content;
  // The not-found and error states carry their own Back to Employers; the bar offers it otherwise.
  let stateHasBack = true;
  if (!valid || (employer.isError && isNotFound(employer.error))) {
    content = <NotFoundState message={d.notFound} backTo={paths.adminEmployers} backLabel={d.backToEmployers} />;
  } else if (employer.isPending) {
    stateHasBack = false;
    content = <LoadingState label={d.loading} rows={2} rowClassName="h-24" />;
  } else if (employer.isError || !employer.data) {
    content = <ErrorState message={d.loadError(errorMessage(employer.error))} backTo={paths.adminEmployers} backLabel={d.backToEmployers} />;
  } else {
    stateHasBack = false;
    const e = employer.data.employer;
    content = (
      <>
        <header className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold break-words">{e.name}</h1>
          <p className="text-sm text-muted">
            {d.companyId}:{' '}
            <span className="font-mono text-xs break-words text-ink">
              <BreakableText text={e.id} />
            </span>
          </p>
        </header>
        <dl className="grid grid-cols-3 gap-2 max-[16rem]:grid-cols-1">
          <StatTile label={d.employees} value={e.employees} />
          <StatTile label={d.participants} value={e.participants} />
          <StatTile label={d.familyMembers} value={e.familyMembers} />
        </dl>
        <EnrolmentPanel companyId={companyId} />
        <EmployerCardDetailsSection companyId={companyId} />
        <Employees companyId={companyId} />
      </>
    );
  }

  return (
    <PageLayout
      title={employer.data?.employer.name ?? t.admin.nav.employers}
      actions={
        stateHasBack ? undefined : (
          <Button variant="secondary" className="flex-1" asChild>
            <Link to={paths.adminEmployers}>
              <ArrowLeft aria-hidden />
              {d.backToEmployers}
            </Link>
          </Button>
        )
      }
    >
      {content}
    </PageLayout>
  );
}

export default AdminEmployerPage;

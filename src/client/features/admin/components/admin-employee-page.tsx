import { isRelationship } from '#shared/schemas/family';
import { ArrowLeft, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths';
import type { EmployeeDetailResponse } from '#shared/schemas/admin';
import { ErrorState, LoadingState, NotFoundState } from '../../../components/load-states';
import { PageLayout } from '../../../components/page-layout';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { t } from '../../../lib/i18n';
import { isRecordId } from '../admin-list-state';
import { BreakableText } from './breakable-text';
import { errorMessage, isNotFound } from '../api/admin-errors';
import { useEmployee } from '../api/get-employee';
import { format } from '../../../lib/language';

const p = t.admin.employee;

/** A value too long for the label's line (an email, an id) moves under it, still right-aligned. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-line py-2 last:border-b-0">
      <dt className="min-w-0 text-sm text-muted">{label}</dt>
      <dd className="ml-auto max-w-full min-w-0 text-right font-semibold break-words text-ink">{children}</dd>
    </div>
  );
}

function EmployeeRecord({ data }: { data: EmployeeDetailResponse }) {
  const e = data.employee;
  return (
    <>
      <h1 className="text-2xl font-bold break-words">
        {e.firstName} {e.lastName}
      </h1>
      <Card className="flex flex-col gap-2" aria-labelledby="account-title">
        <h2 id="account-title" className="text-lg font-bold">
          {p.accountInformation}
        </h2>
        <dl>
          <Row label={p.firstName}>{e.firstName}</Row>
          <Row label={p.lastName}>{e.lastName}</Row>
          <Row label={p.email}>
            <span data-testid="employee-email">
              <BreakableText text={e.email} />
            </span>
          </Row>
          <Row label={p.lhmpId}>{e.lhmpId}</Row>
          <Row label={p.employer}>
            <Link className="text-brand-ink underline underline-offset-4" to={paths.adminEmployer(e.companyId)}>
              {e.companyName}
            </Link>
          </Row>
          <Row label={p.employerId}>
            <span className="font-mono text-xs" data-testid="employer-id">
              <BreakableText text={e.companyId} />
            </span>
          </Row>
          <Row label={p.emailStatus}>
            <Badge variant={e.emailVerifiedAt ? 'success' : 'warning'}>{e.emailVerifiedAt ? p.verified : p.unverified}</Badge>
          </Row>
          <Row label={p.enrollmentStatus}>
            <Badge variant={e.enrolledAt ? 'brand' : 'neutral'}>{e.enrolledAt ? p.enrolled : p.notEnrolled}</Badge>
          </Row>
        </dl>
      </Card>
      <Card className="flex flex-col gap-2" aria-labelledby="activity-title">
        <h2 id="activity-title" className="text-lg font-bold">
          {p.activity}
        </h2>
        <dl>
          <Row label={p.accountCreated}>{format.date(e.createdAt)}</Row>
          <Row label={p.emailVerified}>{e.emailVerifiedAt ? format.date(e.emailVerifiedAt) : p.notYet}</Row>
          <Row label={p.lastLogin}>{e.lastLoginAt ? format.dateTime(e.lastLoginAt) : p.never}</Row>
        </dl>
      </Card>
      <Card className="flex flex-col gap-3" aria-labelledby="family-title">
        <div className="flex items-center justify-between gap-3">
          <h2 id="family-title" className="text-lg font-bold">
            {p.familyMembers}
          </h2>
          <Badge variant="brand">{data.familyMembers.length}</Badge>
        </div>
        {data.familyMembers.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-6 text-center text-muted">
            <Users className="size-8" aria-hidden />
            <p>{p.noFamily}</p>
          </div>
        ) : (
          <ul className="flex flex-col gap-2" aria-labelledby="family-title">
            {data.familyMembers.map((f) => (
              <li key={f.id} className="rounded-xl border border-line bg-canvas p-3" data-testid="family-member">
                <p className="font-semibold break-words text-ink">
                  {f.firstName} {f.lastName}
                </p>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
                  <dt className="text-muted">{p.relationship}:</dt>
                  <dd className="text-ink">{isRelationship(f.relationship) ? t.members.familyForm.relationships[f.relationship] : f.relationship}</dd>
                  <dt className="text-muted">{p.dateAdded}:</dt>
                  <dd className="text-ink">{format.date(f.createdAt)}</dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

/** /admin/employees/{userId}: one employee's record and family (spec section 2); each look is audited. */
export function AdminEmployeePage() {
  const { userId = '' } = useParams();
  const valid = isRecordId(userId);
  const employee = useEmployee(userId, valid);
  const companyId = employee.data?.employee.companyId;
  const back = companyId
    ? { to: paths.adminEmployer(companyId), label: p.backToEmployer }
    : { to: paths.adminEmployers, label: p.backToEmployers };

  let content;
  // The not-found and error states carry their own back button; the bar offers it otherwise.
  let stateHasBack = true;
  if (!valid || (employee.isError && isNotFound(employee.error))) {
    content = <NotFoundState message={p.notFound} backTo={paths.adminEmployers} backLabel={p.backToEmployers} />;
  } else if (employee.isPending) {
    stateHasBack = false;
    content = <LoadingState label={p.loading} rows={3} rowClassName="h-40" />;
  } else if (employee.isError || !employee.data) {
    content = <ErrorState message={p.loadError(errorMessage(employee.error))} backTo={paths.adminEmployers} backLabel={p.backToEmployers} />;
  } else {
    stateHasBack = false;
    content = <EmployeeRecord data={employee.data} />;
  }

  return (
    <PageLayout
      title={employee.data ? `${employee.data.employee.firstName} ${employee.data.employee.lastName}` : t.admin.nav.employers}
      actions={
        stateHasBack ? undefined : (
          <Button variant="secondary" className="flex-1" asChild>
            <Link to={back.to}>
              <ArrowLeft aria-hidden />
              {back.label}
            </Link>
          </Button>
        )
      }
    >
      {content}
    </PageLayout>
  );
}

export default AdminEmployeePage;

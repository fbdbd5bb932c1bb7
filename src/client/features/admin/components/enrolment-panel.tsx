import { FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { useEnrolment } from '../api/get-enrolment';
import { useSetEnrolmentMode } from '../api/set-enrolment-mode';
import { RosterImportDialog } from './roster-import-dialog';

const p = t.enrolment.panel;

/** The employer's enrolment: open or roster (a switch), the roster's size, and Import roster. */
export function EnrolmentPanel({ companyId }: { companyId: string }) {
  const status = useEnrolment(companyId, true);
  const setMode = useSetEnrolmentMode(companyId);
  const [importing, setImporting] = useState(false);
  const switchId = useId();
  const describedBy = `${switchId}-mode`;

  let body;
  if (status.isError) {
    body = <Alert>{serverMessageOr(status.error, p.loadError)}</Alert>;
  } else if (status.isPending || !status.data) {
    body = <Skeleton className="h-24" />;
  } else {
    const { enrolmentMode, rosterEntries } = status.data;
    const roster = enrolmentMode === 'roster';
    body = (
      <>
        <div className="flex items-center justify-between gap-4 max-[16rem]:flex-wrap">
          <label htmlFor={switchId} className="min-w-0 text-sm font-semibold text-ink">
            {p.modeLabel}
          </label>
          <Switch
            id={switchId}
            checked={roster}
            disabled={setMode.isPending}
            aria-describedby={describedBy}
            onCheckedChange={(checked) =>
              setMode.mutate(checked ? 'roster' : 'open', {
                onSuccess: (next) => toast({ title: next.enrolmentMode === 'roster' ? p.modeChangedToRoster : p.modeChangedToOpen, variant: 'success' }),
                onError: (err) => toast({ title: p.modeChangeFailed, description: serverMessageOr(err, ''), variant: 'destructive' }),
              })
            }
          />
        </div>
        <p id={describedBy} className="text-sm text-muted">
          {roster ? p.roster : p.open} {p.entries(rosterEntries)}
        </p>
        {roster && rosterEntries === 0 && <Alert>{p.emptyRosterWarning}</Alert>}
        <Button variant="secondary" onClick={() => setImporting(true)}>
          <FileUp aria-hidden />
          {p.importRoster}
        </Button>
      </>
    );
  }

  return (
    <>
      <Card className="flex flex-col gap-3" aria-labelledby="enrolment-title">
        <h2 id="enrolment-title" className="text-lg font-bold">
          {p.title}
        </h2>
        {body}
      </Card>
      <RosterImportDialog companyId={companyId} open={importing} onOpenChange={setImporting} />
    </>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { FileUp } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import type { RosterImportSummary } from '#shared/schemas/enrolment';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { refreshAfterImport, type UploadProgress, uploadRoster } from '../api/upload-roster';
import { format } from '../../../lib/language';

const d = t.enrolment.importDialog;

type Phase =
  | { step: 'choose'; error?: string }
  | { step: 'checking' | 'importing'; progress: UploadProgress }
  | { step: 'checked' | 'imported'; summary: RosterImportSummary };

function Count({ label, value, tone }: { label: string; value: number; tone?: 'danger' | undefined }) {
  return (
    <div className="flex flex-col-reverse rounded-xl border border-line bg-canvas px-3 py-2">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className={cn('text-xl font-bold tabular-nums', tone === 'danger' && value > 0 ? 'text-danger' : 'text-ink')}>{format.number(value)}</dd>
    </div>
  );
}

function Progress({ label, progress }: { label: string; progress: UploadProgress }) {
  const total = Math.max(progress.total, 1);
  const sent = Math.min(progress.loaded, total);
  const percent = Math.round((sent / total) * 100);
  const status = sent >= total ? d.applying : d.uploading(percent);
  return (
    <div className="flex flex-col gap-2">
      <progress className="h-3 w-full accent-brand" aria-label={label} max={total} value={sent} />
      <p className="text-sm font-medium text-ink" role="status">
        {status}
      </p>
    </div>
  );
}

function Summary({ summary }: { summary: RosterImportSummary }) {
  const applied = summary.applied;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-2">
        <Count label={d.rows} value={summary.rows} />
        <Count label={applied ? d.added : d.toAdd} value={summary.added} />
        <Count label={applied ? d.updated : d.toUpdate} value={summary.updated} />
        <Count label={d.unchanged} value={summary.unchanged} />
        <Count label={applied ? d.removed : d.toRemove} value={summary.removed} />
        <Count label={d.badRows} value={summary.badRows.total} tone="danger" />
      </dl>
      {summary.badRows.total > 0 && (
        <section className="flex flex-col gap-2" aria-labelledby="roster-bad-rows">
          <h3 id="roster-bad-rows" className="text-base font-bold text-danger">
            {d.badRowsTitle(summary.badRows.total, summary.badRows.shown.length)}
          </h3>
          <ol className="flex max-h-48 flex-col gap-1 overflow-y-auto rounded-xl border border-line p-3 text-sm" tabIndex={0} aria-labelledby="roster-bad-rows">
            {summary.badRows.shown.map((row) => (
              <li key={row.line}>
                <span className="font-semibold">{d.line(row.line)}:</span> {row.reason}
              </li>
            ))}
          </ol>
        </section>
      )}
      {summary.membersNotListed.total > 0 && (
        <section className="flex flex-col gap-2" aria-labelledby="roster-not-listed">
          <h3 id="roster-not-listed" className="text-base font-bold text-ink">
            {d.notListedTitle(summary.membersNotListed.total, summary.membersNotListed.shown.length)}
          </h3>
          <p className="text-sm text-muted">{d.notListedNote}</p>
          <ul className="flex max-h-48 flex-col gap-1 overflow-y-auto rounded-xl border border-line p-3 text-sm" tabIndex={0} aria-labelledby="roster-not-listed">
            {summary.membersNotListed.shown.map((member) => (
              <li key={member.id} className="break-words">
                <span className="font-semibold">
                  {member.firstName} {member.lastName}
                </span>{' '}
                ({member.lhmpId}) <span className="break-all text-muted">{member.email}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/**
 * "Import roster" on the employer page: choose a CSV, see the dry run (nothing changes), then
 * import the same file with a progress bar. The dialog cannot be dismissed mid-upload.
 */
export function RosterImportDialog({ companyId, open, onOpenChange }: { companyId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'choose' });
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const heading = useRef<HTMLHeadingElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = phase.step === 'checking' || phase.step === 'importing';

  // A result or an error takes focus, so a screen reader reads it and the keyboard starts there.
  useEffect(() => {
    if (phase.step === 'checked' || phase.step === 'imported') heading.current?.focus();
    if (phase.step === 'choose' && phase.error) fileInput.current?.focus();
  }, [phase]);

  const reset = () => {
    setFile(null);
    setPhase({ step: 'choose' });
  };

  const failure = (err: unknown) => {
    const message = err instanceof ApiError ? (err.serverMessage ?? d.failed) : d.network;
    setPhase({ step: 'choose', error: message });
  };

  const send = async (mode: 'dry-run' | 'import') => {
    if (!file) {
      setPhase({ step: 'choose', error: d.fileRequired });
      return;
    }
    const step = mode === 'dry-run' ? 'checking' : 'importing';
    setPhase({ step, progress: { loaded: 0, total: file.size } });
    try {
      const summary = await uploadRoster(companyId, file, mode, (progress) => setPhase({ step, progress }));
      setPhase({ step: mode === 'dry-run' ? 'checked' : 'imported', summary });
      if (mode === 'import') await refreshAfterImport(queryClient, companyId);
    } catch (err) {
      failure(err);
    }
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setPhase({ step: 'choose' });
  };

  const changeOpen = (next: boolean) => {
    if (busy) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const goodRows = phase.step === 'checked' ? phase.summary.added + phase.summary.updated + phase.summary.unchanged : 0;

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        title={d.title}
        description={d.description}
        hideClose={busy}
        onOpenAutoFocus={(event) => {
          // The file field first: it is what the dialog is for.
          event.preventDefault();
          fileInput.current?.focus();
        }}
      >
        {phase.step === 'choose' && (
          <form
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              void send('dry-run');
            }}
            noValidate
          >
            <div className="flex flex-col gap-1.5">
              <label htmlFor={inputId} className="text-sm font-semibold text-ink">
                {d.fileLabel}
              </label>
              <input
                ref={fileInput}
                id={inputId}
                type="file"
                accept=".csv,text/csv"
                onChange={onFile}
                aria-invalid={phase.error ? true : undefined}
                aria-describedby={phase.error ? `${hintId} ${errorId}` : hintId}
                className="block w-full rounded-xl border border-line bg-surface text-sm text-ink file:mr-3 file:min-h-12 file:border-0 file:bg-brand-soft file:px-4 file:font-semibold file:text-brand-ink aria-invalid:border-danger"
              />
              <p id={hintId} className="text-sm text-muted">
                {d.fileHint}
              </p>
              {phase.error && (
                <p id={errorId} className="text-sm font-medium text-danger" role="alert">
                  {phase.error}
                </p>
              )}
            </div>
            <div className="flex flex-col gap-2">
              <Button type="submit">
                <FileUp aria-hidden />
                {d.check}
              </Button>
              <Button variant="secondary" onClick={() => changeOpen(false)}>
                {d.cancel}
              </Button>
            </div>
          </form>
        )}

        {(phase.step === 'checking' || phase.step === 'importing') && (
          <div className="flex flex-col gap-3" aria-busy>
            <p className="text-sm font-semibold text-ink">{phase.step === 'checking' ? d.checking : file?.name}</p>
            <Progress label={d.progressLabel} progress={phase.progress} />
          </div>
        )}

        {phase.step === 'checked' && (
          <div className="flex flex-col gap-4">
            <h3 ref={heading} tabIndex={-1} className="text-lg font-bold text-ink outline-none">
              {d.checkedTitle}
            </h3>
            <Summary summary={phase.summary} />
            <div className="flex flex-col gap-2">
              <Button onClick={() => void send('import')} disabled={goodRows === 0}>
                {d.import(goodRows)}
              </Button>
              <Button variant="secondary" onClick={reset}>
                {d.chooseAnother}
              </Button>
            </div>
          </div>
        )}

        {phase.step === 'imported' && (
          <div className="flex flex-col gap-4">
            <h3 ref={heading} tabIndex={-1} className="text-lg font-bold text-ink outline-none">
              {d.importedTitle}
            </h3>
            <Alert variant="success">{d.switchedToRoster}</Alert>
            <Summary summary={phase.summary} />
            <Button onClick={() => changeOpen(false)}>{d.close}</Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

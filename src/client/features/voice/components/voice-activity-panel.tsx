import { History } from 'lucide-react';
import { t } from '../../../lib/i18n';
import type { AuditEntry } from '../voice-session';
import { format } from '../../../lib/language';

const time = (at: number) => format.time(at);

/** The on-device voice audit log, newest first. It is never sent to the server. */
export function VoiceActivityPanel({ log }: { log: readonly AuditEntry[] }) {
  const a = t.voice.activity;
  return (
    <details className="group rounded-xl border border-line bg-canvas" data-testid="voice-activity">
      <summary className="flex min-h-12 cursor-pointer list-none flex-wrap items-center gap-2 px-4 text-sm font-semibold [&::-webkit-details-marker]:hidden">
        <History className="size-4 text-muted" aria-hidden />
        <span>{a.title}</span>
        <span className="ml-auto rounded-full bg-surface px-2 py-0.5 text-xs font-semibold text-muted ring-1 ring-line">{log.length}</span>
      </summary>
      <div className="border-t border-line px-4 py-3">
        <p className="mb-2 text-xs text-muted">{a.description}</p>
        {log.length === 0 ? (
          <p className="text-sm text-muted">{a.empty}</p>
        ) : (
          <ol className="flex max-h-64 flex-col gap-1.5 overflow-y-auto text-sm" aria-label={a.title} tabIndex={0}>
            {[...log].reverse().map((entry) => (
              <li key={entry.id} className="flex gap-2">
                <time className="shrink-0 font-mono text-xs leading-5 text-muted" dateTime={new Date(entry.at).toISOString()}>
                  {time(entry.at)}
                </time>
                <span className="min-w-0 break-words">
                  {a.events[entry.kind]}
                  {entry.detail !== undefined && <span className="text-muted"> {entry.detail}</span>}
                </span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </details>
  );
}

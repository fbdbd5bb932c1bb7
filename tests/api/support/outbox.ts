/**
 * Reads mail straight from the outbox table, for API tests that need a link from an email but
 * not a real SMTP server. API tests do not listen, so the outbox worker never runs on its own
 * there: queued rows keep their bodies until a test calls `t.app.outbox.flush()` with SMTP_URL set.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { outbox } from '../../../src/db/schema';
import type { TestApp } from './test-app';

export interface OutboxMail {
  id: number;
  to: string;
  template: string;
  subject: string;
  /** Empty once the message was sent (bodies are cleared then). */
  text: string;
  html: string;
  /** The first absolute link in the text body; undefined when there is none (or it was sent). */
  link: string | undefined;
  /** The link's path and query (e.g. `/verify-email?token=...`), for `app.inject` or `page.goto`. */
  path: string | undefined;
  /** The `token` query parameter of the link, if any. */
  token: string | undefined;
  attempts: number;
  sentAt: Date | null;
  lastError: string | null;
}

/** Every outbox row to `to` (case-insensitive), oldest first. */
export async function mailsTo(t: Pick<TestApp, 'database'>, to: string): Promise<OutboxMail[]> {
  const rows = await t.database.db
    .select()
    .from(outbox)
    .where(eq(sql`lower(${outbox.toAddress})`, to.toLowerCase()))
    .orderBy(outbox.id);
  return rows.map(toMail);
}

/** The newest outbox row to `to`, optionally of one template; throws when there is none. */
export async function latestMail(t: Pick<TestApp, 'database'>, to: string, template?: string): Promise<OutboxMail> {
  const rows = await t.database.db
    .select()
    .from(outbox)
    .where(
      template
        ? sql`lower(${outbox.toAddress}) = ${to.toLowerCase()} and ${outbox.template} = ${template}`
        : eq(sql`lower(${outbox.toAddress})`, to.toLowerCase()),
    )
    .orderBy(desc(outbox.id))
    .limit(1);
  const row = rows[0];
  if (!row) throw new Error(`no mail to ${to}${template ? ` (${template})` : ''} in the outbox`);
  return toMail(row);
}

function toMail(row: typeof outbox.$inferSelect): OutboxMail {
  const text = row.textBody ?? '';
  const link = /https?:\/\/[^\s<>"')]+/.exec(text)?.[0];
  const url = link ? new URL(link) : undefined;
  return {
    id: Number(row.id),
    to: row.toAddress,
    template: row.template,
    subject: row.subject,
    text,
    html: row.htmlBody ?? '',
    link,
    path: url ? `${url.pathname}${url.search}` : undefined,
    token: url?.searchParams.get('token') ?? undefined,
    attempts: row.attempts,
    sentAt: row.sentAt,
    lastError: row.lastError,
  };
}

/**
 * A real SMTP server in the test process (the `smtp-server` package) that keeps every message
 * it accepts, so tests read the mail a member would get. Point the app's SMTP_URL at `url`.
 *
 *   const smtp = await startSmtpCatcher();
 *   const t = await createTestApp({ env: { SMTP_URL: smtp.url } });
 *   ... a request that sends mail ...
 *   await t.app.outbox.flush();               // or let the worker's kick send it
 *   const mail = await smtp.waitFor(email, (m) => m.subject.includes('Verify'));
 *   const link = linkIn(mail.text);
 *
 * No authentication, no TLS (STARTTLS is not offered), 127.0.0.1 on a free port.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { type ParsedMail, parseMessage } from './mime';

export { linkIn, parseMessage } from './mime';

export interface CaughtMail extends ParsedMail {
  /** The envelope recipient (RCPT TO), lower-cased; one entry per recipient. */
  to: string;
  /** The envelope sender (MAIL FROM). */
  from: string;
  raw: string;
}

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every message accepted so far, oldest first. */
  messages: CaughtMail[];
  /**
   * The newest message to `to` (case-insensitive) that satisfies `predicate`, already received or
   * the next one to arrive; rejects after `timeoutMs` (default 5 s) naming what did arrive.
   */
  waitFor(to: string, predicate?: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  /** Messages to `to`, oldest first. */
  to(to: string): CaughtMail[];
  /**
   * While set, every RCPT TO is answered with this SMTP error (default 451, a temporary failure),
   * so the sender sees an outage; `refuse(false)` accepts mail again.
   */
  refuse(on: boolean, reply?: { code: number; message: string }): void;
  /** How many deliveries were refused while `refuse(true)` was set. */
  refusedCount(): number;
  clear(): void;
  close(): Promise<void>;
}

export async function startSmtpCatcher(options: { port?: number; host?: string } = {}): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let refusal: { code: number; message: string } | null = null;
  let refused = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refusal) {
        refused += 1;
        const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = parseMessage(raw);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        for (const rcpt of session.envelope.rcptTo) {
          messages.push({ ...parsed, to: rcpt.address.toLowerCase(), from, raw });
        }
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  // A client that goes away mid-session is not the test's concern.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  const toList = (to: string) => messages.filter((m) => m.to === to.toLowerCase());

  return {
    url: `smtp://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    messages,
    to: toList,
    waitFor(to, predicate = () => true, timeoutMs = 5000) {
      const find = () => toList(to).filter(predicate).at(-1);
      const found = find();
      if (found) return Promise.resolve(found);
      return new Promise<CaughtMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          const seen = messages.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`no matching mail to ${to} within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        const check = () => {
          const mail = find();
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mail);
        };
        waiters.add(check);
      });
    },
    refuse(on, reply = { code: 451, message: 'Temporary failure, try again later' }) {
      refusal = on ? reply : null;
    },
    refusedCount: () => refused,
    clear() {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The E2E run's mailbox: the app sends real mail over SMTP to scripts/e2e-mail-catcher.mjs
 * (started by playwright.config.ts next to the app); these helpers read it, so a test follows
 * the link in an email as a member would:
 *
 *   const mail = await waitForEmail(member.email, (m) => m.subject === 'Verify your email address');
 *   await page.goto(linkFrom(mail));
 *
 * Links are absolute and start with the run's baseURL (PUBLIC_URL is set to it).
 */
import { expect } from '@playwright/test';
import { e2eMail } from '../../../playwright.config';
import { type ParsedMail, linkIn, parseMessage } from '../../api/support/mime';

export interface Email extends ParsedMail {
  /** Order of arrival in this run (1, 2, ...): compare to wait for a newer message. */
  id: number;
  /** Envelope recipient, lower-cased. */
  to: string;
  receivedAt: string;
}

const mailbox = `http://127.0.0.1:${e2eMail.httpPort}`;

/** Every email to `to` (case-insensitive) so far, oldest first. */
export async function emailsTo(to: string): Promise<Email[]> {
  const res = await fetch(`${mailbox}/messages?to=${encodeURIComponent(to.toLowerCase())}`);
  if (!res.ok) throw new Error(`mail catcher answered ${res.status}`);
  const list = (await res.json()) as { id: number; to: string; receivedAt: string; raw: string }[];
  return list.map(({ raw, ...m }) => ({ ...m, ...parseMessage(raw) }));
}

/** The newest email to `to`, or undefined when none has arrived. */
export async function latestEmail(to: string): Promise<Email | undefined> {
  return (await emailsTo(to)).at(-1);
}

/**
 * The newest email to `to` that satisfies `predicate`, waiting for it to arrive (the app sends
 * within moments of the request that queued it). Fails after `timeout` ms (default 10 s).
 */
export async function waitForEmail(to: string, predicate: (mail: Email) => boolean = () => true, options: { timeout?: number } = {}): Promise<Email> {
  let found: Email | undefined;
  await expect
    .poll(
      async () => {
        found = (await emailsTo(to)).filter(predicate).at(-1);
        return found !== undefined;
      },
      { message: `an email to ${to}`, timeout: options.timeout ?? 10_000, intervals: [100, 100, 250, 500] },
    )
    .toBe(true);
  return found!;
}

/** The link in an email (the first absolute http(s) address of its text body). */
export function linkFrom(mail: Pick<Email, 'text'>): string {
  return linkIn(mail.text);
}

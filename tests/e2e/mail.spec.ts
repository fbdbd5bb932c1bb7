import { expect, test } from '@playwright/test';
import { registerViaApi } from './support/fixtures';
import { linkFrom, waitForEmail } from './support/mail';

/**
 * The run's mail pipeline works end to end: the app sends over SMTP to the catcher started by
 * playwright.config.ts, promptly, with a link to this very server. The account flows (H2's
 * specs) then follow such links as members would.
 */
test('registration mail reaches the run’s mailbox within moments, with a link to this server', async ({ request, baseURL }) => {
  const member = await registerViaApi(request);
  const started = Date.now();
  const mail = await waitForEmail(member.email, (m) => m.subject === 'Verify your email address', { timeout: 5_000 });
  expect(Date.now() - started).toBeLessThan(3_000);
  expect(mail.text).toContain(`Hello ${member.firstName},`);
  expect(mail.html).toContain('<html lang="en"');
  expect(linkFrom(mail)).toMatch(new RegExp(`^${baseURL!.replace(/[.]/g, '\\.')}/verify-email\\?token=[A-Za-z0-9_-]{20,}$`));
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type axe from 'axe-core';
import { type APIRequestContext, type Page, type Route, expect, test as base } from '@playwright/test';

let seq = 0;
/** Fresh, valid registration data: every test makes its own people. */
export function newMemberData(overrides: Partial<Record<'firstName' | 'lastName' | 'email' | 'company' | 'lhmpId' | 'password', string>> = {}) {
  seq += 1;
  const unique = `${Date.now().toString(36)}${process.pid.toString(36)}${seq}`;
  const digits = String((Date.now() * 7 + process.pid * 131 + seq * 7919) % 100_000).padStart(5, '0');
  return {
    firstName: 'Riley',
    lastName: `Tester${seq}`,
    email: `riley.${unique}@e2e.test`,
    company: 'E2E Employer',
    lhmpId: `LQ${digits}`,
    password: 'E2e passphrase long',
    ...overrides,
  };
}

export type Member = ReturnType<typeof newMemberData> & { id: string };

/** Registers through the API, retrying on the rare programme-ID collision. */
export async function registerViaApi(request: APIRequestContext, overrides: Parameters<typeof newMemberData>[0] = {}): Promise<Member> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const data = newMemberData(overrides);
    const res = await request.post('/api/auth/register', { data });
    if (res.status() === 201) return { ...data, id: (await res.json()).user.id };
    if (res.status() !== 409) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  }
  throw new Error('register kept colliding');
}

/**
 * Signs in through the form, as a member would, and waits for Home. With `code` (an account
 * with two-step sign-in) the same page then asks for it.
 */
export async function signInViaUi(page: Page, member: { email: string; password: string }, options: { code?: string } = {}) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  if (options.code !== undefined) {
    await page.getByLabel('Authentication code').fill(options.code);
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await page.waitForURL('**/home');
}

/** Puts a session in the page's local storage before the app loads, as a signed-in browser has it. */
export async function seedSession(page: Page, session: { token: string; user: unknown; account?: unknown }) {
  await page.addInitScript(
    ([t, u, a]: [string, string, string | null]) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem('auth_token', t);
        localStorage.setItem('auth_user', u);
        if (a) localStorage.setItem('auth_account', a);
        sessionStorage.setItem('e2e-seeded', '1');
      }
    },
    [session.token, JSON.stringify(session.user), session.account ? JSON.stringify(session.account) : null] as [string, string, string | null],
  );
}

/** Signs in through the API and seeds local storage before the app loads (fast path). */
export async function signInViaStorage(page: Page, request: APIRequestContext, member: { email: string; password: string }) {
  const res = await request.post('/api/auth/signin', { data: { email: member.email, password: member.password } });
  expect(res.status()).toBe(200);
  const { token, user } = await res.json();
  // What a sign-in in the app keeps too: the account state, read as the app reads it.
  const me = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  await seedSession(page, { token: token as string, user, account: (await me.json()).account });
  return { token: token as string, user };
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Zero serious or critical axe violations (WCAG 2.1 A/AA), on the page or within `include` (a selector).
 *
 * A page of one document runs axe-core's own `axe.run`, its source put in once per document.
 * @axe-core/playwright evaluates the 550 KB source twice per check and finishes each in a new
 * blank page: about 1.4 s a check on these machines, against 0.5 s this way (0.2 s once the
 * document has the source). The specs call this from 86 places, several in loops over every
 * screen. A page with frames (an embedded player) goes through @axe-core/playwright, which puts
 * axe in every frame and checks inside them too.
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { include?: string } = {}) {
  let violations: axe.Result[];
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
    violations = (await (options.include ? builder.include(options.include) : builder).analyze()).violations;
  } else {
    // A string evaluated by the browser's debugger is not held to the page's CSP, as AxeBuilder's is not.
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
    violations = await page.evaluate(
      ([include, tags]) =>
        (window as unknown as { axe: typeof axe }).axe
          .run(include ? { include: [include] } : document, { runOnly: { type: 'tag', values: tags } })
          .then((results) => results.violations),
      [options.include ?? null, WCAG_TAGS] as const,
    );
  }
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/**
 * Resolves once the page's idle watch listens. Its code is imported when the session starts and
 * activity before it arrives is not counted (the silence counts from the start), so a test that
 * counts on activity must wait for it: call before the page loads, await after.
 */
export function idleWatchListening(page: Page) {
  const code = page.waitForResponse(/\/idle-timer-[\w-]+\.js$/);
  return async () => {
    const response = await code;
    await response.finished();
    // The same module, imported again, resolves once it has run; the app's own import of it
    // resolved first and armed the watch in the same turn.
    await page.evaluate((url) => import(url).then(() => undefined), response.url());
  };
}

/**
 * Stops the page's fake clock (`page.clock.install()` first) a second ahead of its present,
 * so the app's timers then move only by runFor: a stalled machine can no longer expire a
 * toast or message before a test looks at it. The clock runs in real time until then; if the
 * chosen instant is already past when the call lands, it tries again.
 */
export async function pauseClock(page: Page) {
  await expect(async () => {
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  }).toPass();
}

/**
 * Holds the app's chunk back until `release` is called: what a page's HTML draws (/login, a
 * signed-in device's /home: scripts/prerender.mjs) is then all there is.
 */
export async function holdAppCode(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/assets\/app-[^/]*\.js$/, async (route: Route) => {
    requested = true;
    await held;
    await route.continue();
  });
  return { release, wasRequested: () => requested };
}

export const test = base.extend<{ member: Member }>({
  member: async ({ request }, use) => {
    await use(await registerViaApi(request));
  },
});
export { expect };

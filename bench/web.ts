/**
 * What a phone downloads and how soon it can use the app, for a first visit (cold cache) to
 * /login signed out and to /home signed in (a member whose email is verified, and one whose is
 * not yet):
 * - the JavaScript on the wire as Chromium counts it (`encodedDataLength` of every script,
 *   headers included) until the network is idle, against the 100 / 170 KiB budgets, and
 *   every byte of the page the same way;
 * - Lighthouse mobile with simulated throttling (its defaults): Performance, LCP, TBT, Best
 *   Practices and Accessibility, the median of WEB_LH_RUNS runs (default 3; 0 for bytes only).
 * The app is served from the build (BUILD_OUT, default dist) by the real server, as `npm start`
 * serves it, so compression is whatever the server does with the built assets; WEB_URL measures
 * a server already running instead (it must allow registrations: AUTH_RATE_LIMIT_PER_IP).
 * WEB_ROUTES=/home picks routes; WEB_REPORTS=<dir> keeps the Lighthouse reports and their traces;
 * WEB_LH_EXTRA adds Lighthouse flags (`--additional-trace-categories=disabled-by-default-v8.cpu_profiler`
 * samples the kept traces' JavaScript, at some cost to the figures); WEB_CHROME_EXTRA adds
 * Chromium flags (`--disable-features=PreloadTopChromeWebUI` stops the headless browser preparing
 * its own omnibox page beside the one measured: docs/performance-log.md, stop 40). Needs Debian's
 * Chromium (/usr/bin/chromium or CHROMIUM_PATH); Lighthouse is a devDependency and runs
 * offline. Build first: `npm run build && npm run bench -- web`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { SIGNED_IN_COOKIE } from '../src/shared/i18n/languages';
import { startApp } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LH_RUNS = Math.max(0, Number(process.env.WEB_LH_RUNS ?? 3));
const BUDGET_KIB = { '/login': 100, '/home': 170 } as const;
type Route = keyof typeof BUDGET_KIB;
/** The flags an environment variable holds, separated by spaces (none when unset). */
const flagsFrom = (value: string | undefined) => value?.trim().split(/\s+/).filter(Boolean) ?? [];
const CHROME_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...flagsFrom(process.env.WEB_CHROME_EXTRA)];

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/**
 * What the app keeps in local storage for a signed-in member (lib/session-keys.ts); it also
 * tells the server in a cookie for /home that the device holds a session (`SIGNED_IN_COOKIE`).
 */
interface Session {
  token: string;
  user: string;
  account: string;
}

/**
 * A fresh member, registered and signed in through the API, with local storage as the app
 * leaves it after signing in (the token, the user, and the account state GET /api/auth/me gave).
 */
async function signedInMember(base: string, verify?: (email: string) => Promise<void>): Promise<Session> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const password = 'Quiet-harbour-lantern-2026';
  const post = (p: string, body: unknown) => fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reg = await post('/api/auth/register', {
    firstName: 'Budget',
    lastName: 'Phone',
    email: `web.${suffix}@bench.test`,
    company: `Web Bench ${suffix}`,
    lhmpId: `LQ${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`,
    password,
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  await verify?.(`web.${suffix}@bench.test`);
  const signin = await post('/api/auth/signin', { email: `web.${suffix}@bench.test`, password });
  if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${await signin.text()}`);
  const { token, user } = (await signin.json()) as { token: string; user: unknown };
  const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  if (me.status !== 200) throw new Error(`GET /api/auth/me failed: ${me.status}`);
  const { account } = (await me.json()) as { account: { emailVerified: boolean; mfaEnabled: boolean } };
  return { token, user: JSON.stringify(user), account: JSON.stringify({ emailVerified: account.emailVerified, mfaEnabled: account.mfaEnabled }) };
}

interface Wire {
  js: number;
  all: number;
  scripts: number;
  encodings: Set<string>;
  /** Scripts answered with a Content-Length: a file sent as it is (precompressed), not compressed on the fly. */
  fixedLength: number;
  finalPath: string;
}

/** First visit in a new context (empty cache), until the network is idle once the screen shows. */
async function wireBytes(base: string, route: Route, session?: Session): Promise<Wire> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    if (session) {
      await page.addInitScript(([token, user, account]) => {
        localStorage.setItem('auth_token', token!);
        localStorage.setItem('auth_user', user!);
        localStorage.setItem('auth_account', account!);
      }, [session.token, session.user, session.account]);
      await context.addCookies([{ name: SIGNED_IN_COOKIE, value: 'en', url: `${base}/home`, sameSite: 'Lax' }]);
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const responses = new Map<string, { type: string | undefined; headers: Record<string, string> }>();
    const wire: Wire = { js: 0, all: 0, scripts: 0, encodings: new Set(), fixedLength: 0, finalPath: '' };
    const inFlight = new Set<string>();
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      inFlight.add(e.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      responses.set(e.requestId, { type: e.type, headers });
    });
    cdp.on('Network.loadingFailed', (e) => {
      inFlight.delete(e.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFinished', (e) => {
      inFlight.delete(e.requestId);
      lastActivity = Date.now();
      wire.all += e.encodedDataLength;
      const r = responses.get(e.requestId);
      if (r?.type !== 'Script') return;
      wire.js += e.encodedDataLength;
      wire.scripts += 1;
      wire.encodings.add(r.headers['content-encoding'] ?? 'none');
      if (r.headers['content-length'] !== undefined) wire.fixedLength += 1;
    });
    // Until the network is idle (nothing in flight for 500 ms, as Playwright's networkidle)
    // once the screen is up: on a busy machine the app can take longer than 500 ms to run
    // before it asks for its next chunk, and networkidle alone would stop there.
    await page.goto(base + route, { waitUntil: 'load' });
    await page.locator('main#main').first().waitFor({ timeout: 30_000 });
    const giveUp = Date.now() + 30_000;
    while ((inFlight.size > 0 || Date.now() - lastActivity < 500) && Date.now() < giveUp) await sleep(50);
    wire.finalPath = new URL(page.url()).pathname;
    return wire;
  } finally {
    await browser.close();
  }
}

/** A headless Chromium with a DevTools port, as Lighthouse's own launcher would start it. */
async function startChromium(): Promise<{ port: number; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'web-bench-'));
  const child = spawn(CHROMIUM, ['--headless=new', ...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--disable-extensions', '--mute-audio', '--no-default-browser-check', 'about:blank'], { stdio: 'ignore' });
  const portFile = path.join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 200 && !existsSync(portFile); i += 1) await sleep(50);
  const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
  return {
    port,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Writes the session into the origin's local storage, and its cookie, through the DevTools protocol (no page of the app is loaded, so no cache is warmed). */
async function storeSession(port: number, base: string, session: Session) {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const ws = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const pending = new Map<number, (m: { result?: Record<string, unknown>; error?: unknown }) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message);
  };
  const send = async (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
    id += 1;
    const answer = new Promise<{ result?: Record<string, unknown>; error?: unknown }>((resolve) => pending.set(id, resolve));
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    const message = await answer;
    if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
    return message.result ?? {};
  };
  try {
    const { targetId } = await send('Target.createTarget', { url: `${base}/readyz` });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    const evaluate = (expression: string) => send('Runtime.evaluate', { expression, returnByValue: true }, sessionId as string);
    for (let i = 0; i < 100; i += 1) {
      const { result } = (await evaluate('location.origin + document.readyState')) as { result: { value: string } };
      if (result.value === `${new URL(base).origin}complete`) break;
      await sleep(50);
    }
    const entries = { auth_token: session.token, auth_user: session.user, auth_account: session.account };
    await evaluate(Object.entries(entries).map(([key, value]) => `localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(value)});`).join(' '));
    await evaluate(`document.cookie = ${JSON.stringify(`${SIGNED_IN_COOKIE}=en; Path=/home; Max-Age=31536000; SameSite=Lax`)};`);
    await send('Target.closeTarget', { targetId });
  } finally {
    ws.close();
  }
}

interface LighthouseRun {
  performance: number;
  bestPractices: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  finalPath: string;
  benchmarkIndex: number;
  failedBestPractices: string[];
}

const require = createRequire(import.meta.url);
const lighthouseCli = path.join(path.dirname(require.resolve('lighthouse/package.json')), 'cli', 'index.js');

/** One Lighthouse run (mobile, simulated throttling: its defaults) in its own process, on the given browser. */
async function lighthouse(url: string, port: number, keepAs?: string): Promise<LighthouseRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-bench-lh-'));
  const out = path.join(dir, 'report.json');
  try {
    // Kept reports come with the run's trace (report-0.trace.json), to read the long tasks in.
    const args = [lighthouseCli, url, `--port=${port}`, '--quiet', '--output=json', `--output-path=${out}`, '--only-categories=performance,accessibility,best-practices', ...(keepAs ? ['--save-assets'] : []), ...flagsFrom(process.env.WEB_LH_EXTRA)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0 || !existsSync(out)) throw new Error(`lighthouse exited ${code}: ${stderr.slice(0, 300)}`);
    if (keepAs) {
      mkdirSync(path.dirname(keepAs), { recursive: true });
      copyFileSync(out, keepAs);
      const trace = path.join(dir, 'report-0.trace.json');
      if (existsSync(trace)) copyFileSync(trace, keepAs.replace(/\.json$/, '.trace.json'));
    }
    type Audit = { score: number | null; numericValue?: number };
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      finalDisplayedUrl: string;
      environment: { benchmarkIndex: number };
      runtimeError?: { message: string };
      categories: Record<string, { score: number; auditRefs: { id: string; weight: number }[] }>;
      audits: Record<string, Audit>;
    };
    if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.message}`);
    const { categories: c, audits: a } = report;
    return {
      performance: Math.round(c.performance!.score * 100),
      bestPractices: Math.round(c['best-practices']!.score * 100),
      accessibility: Math.round(c.accessibility!.score * 100),
      lcpMs: Math.round(a['largest-contentful-paint']!.numericValue!),
      tbtMs: Math.round(a['total-blocking-time']!.numericValue!),
      fcpMs: Math.round(a['first-contentful-paint']!.numericValue!),
      finalPath: new URL(report.finalDisplayedUrl).pathname,
      benchmarkIndex: Math.round(report.environment.benchmarkIndex),
      failedBestPractices: c['best-practices']!.auditRefs.filter((r) => r.weight > 0 && a[r.id]?.score !== null && (a[r.id]?.score ?? 1) < 1).map((r) => r.id),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, number | string>> {
  const clientDir = path.resolve(process.env.BUILD_OUT ?? 'dist', 'client');
  const external = process.env.WEB_URL?.replace(/\/+$/, '');
  if (!external && !existsSync(path.join(clientDir, 'index.html'))) throw new Error(`no build at ${clientDir}; run npm run build first`);
  const server = external ? undefined : await startApp({ SERVE_CLIENT: '1', CLIENT_DIR: clientDir });
  const base = external ?? server!.url.replace('localhost', '127.0.0.1');
  const routes = (process.env.WEB_ROUTES?.split(',') ?? Object.keys(BUDGET_KIB)).filter((r): r is Route => r in BUDGET_KIB);
  const reports = process.env.WEB_REPORTS ? path.resolve(process.env.WEB_REPORTS) : undefined;
  const result: Record<string, number | string> = { server: external ?? `this build (${path.relative(process.cwd(), clientDir)}), served in-process` };
  try {
    // Home as members see it every day (email verified), and on their first (not yet: the
    // banner asking for it, with their address, comes with the app). In-process only: a
    // server at WEB_URL gets the first-day member alone.
    const firstDay = await signedInMember(base);
    const verified = server
      ? await signedInMember(base, async (email) => {
          await server.database.db.execute(sql`update users set email_verified_at = now() where email = ${email}`);
        })
      : undefined;
    const visits = routes.flatMap((route): { route: Route; label: string; member?: Session }[] =>
      route === '/home'
        ? [...(verified ? [{ route, label: route, member: verified }] : []), { route, label: `${route} (email not yet verified)`, member: firstDay }]
        : [{ route, label: route }],
    );
    for (const { route, label, member } of visits) {
      const wire = await wireBytes(base, route, member);
      const budget = BUDGET_KIB[route];
      result[`${label} JS KiB on the wire (budget ${budget})`] = `${kib(wire.js)} ${wire.js / 1024 <= budget ? 'ok' : 'OVER'}`;
      result[`${label} scripts`] = `${wire.scripts}, content-encoding ${[...wire.encodings].join('+')}, ${wire.fixedLength === wire.scripts ? 'precompressed (content-length)' : `${wire.scripts - wire.fixedLength} compressed on the fly (chunked)`}`;
      result[`${label} all bytes KiB on the wire`] = kib(wire.all);
      if (wire.finalPath !== route) result[`${label} NOTE`] = `ended on ${wire.finalPath}`;

      if (LH_RUNS === 0) continue;
      const browser = await startChromium();
      const runs: LighthouseRun[] = [];
      try {
        if (member) await storeSession(browser.port, base, member);
        for (let i = 0; i < LH_RUNS; i += 1) runs.push(await lighthouse(base + route, browser.port, reports && path.join(reports, `${label.slice(1).replaceAll(/\W+/g, '-')}-${i + 1}.json`)));
      } finally {
        await browser.close();
      }
      const m = (pick: (r: LighthouseRun) => number) => median(runs.map(pick));
      const each = (pick: (r: LighthouseRun) => number) => runs.map(pick).join(' / ');
      result[`${label} lighthouse performance (median of ${runs.length})`] = `${m((r) => r.performance)} (runs ${each((r) => r.performance)})`;
      result[`${label} lighthouse LCP ms`] = `${m((r) => r.lcpMs)} (runs ${each((r) => r.lcpMs)})`;
      result[`${label} lighthouse TBT ms`] = `${m((r) => r.tbtMs)} (runs ${each((r) => r.tbtMs)})`;
      result[`${label} lighthouse FCP ms`] = m((r) => r.fcpMs);
      result[`${label} lighthouse best practices`] = `${m((r) => r.bestPractices)}${runs.some((r) => r.failedBestPractices.length) ? ` (failed: ${[...new Set(runs.flatMap((r) => r.failedBestPractices))].join(', ')})` : ''}`;
      result[`${label} lighthouse accessibility`] = m((r) => r.accessibility);
      const wrong = runs.filter((r) => r.finalPath !== route);
      if (wrong.length) result[`${label} lighthouse NOTE`] = `${wrong.length} run(s) ended on ${wrong[0]!.finalPath}`;
      result[`${label} lighthouse host benchmarkIndex`] = each((r) => r.benchmarkIndex);
    }
  } finally {
    await server?.close();
  }
  return result;
}

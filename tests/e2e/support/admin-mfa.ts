/**
 * The bootstrap administrator's second factor across one end-to-end run.
 *
 * Every spec shares ONE administrator (`e2eAdmin`), two workers run at once, and a TOTP code
 * works once per 30-second step, so tests that each typed "the current code" would collide
 * or wait. Instead the `admin-setup` project (admin-mfa.setup.ts) runs first, alone: it signs
 * the administrator in a few times while no factor exists yet (plain, not elevated sessions),
 * walks the first set-up through the Admin Access dialog, and writes to `.tmp/` the secret,
 * the step it used, the ten recovery codes, the new elevated token and the spare sessions.
 * Then:
 * - tests that only need an elevated admin reuse that token (`sharedElevatedAdmin`);
 * - tests that need a signed-in admin who has not stepped up take a spare session of their own
 *   (`claimPlainAdminSession`);
 * - tests that type a code take one nobody else will use (`claimAdminCode`): the first claim in
 *   the run gets a TOTP code of a step after the set-up's (no other worker types TOTP codes,
 *   so no step is used twice and none needs waiting for), every later one a recovery code.
 * Claims are files created with O_EXCL, so two workers can never take the same one.
 *
 * Servers a spec starts for itself (popups.spec's private server) have their own fresh
 * administrator; `elevatedAdminToken(request, baseURL)` sets its factor up on first use and
 * keeps it in the worker's memory (the server belongs to that worker alone).
 */
import { mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { e2eAdmin } from '../../../playwright.config';

const port = Number(process.env.E2E_PORT ?? 4173);
const dir = path.resolve(`.tmp/e2e-admin-${port}`);
const stateFile = path.join(dir, 'admin.json');
const STEP_MS = 30_000;

export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  lhmpId: string;
  company: string;
  role: 'member' | 'admin';
}

export interface SharedAdminState {
  secret: string;
  /** The TOTP step the set-up used. */
  lastStep: number;
  recoveryCodes: string[];
  elevatedToken: string;
  plainTokens: string[];
  user: SessionUser;
}

export const totpStepNow = () => Math.floor(Date.now() / STEP_MS);
export const totpCodeForStep = (secret: string, step: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret.replace(/\s+/g, '')), algorithm: 'SHA1', digits: 6, period: 30, timestamp: step * STEP_MS });

/** Written once by the setup project; claims from an earlier run are cleared with it. */
export function writeSharedAdmin(state: SharedAdminState) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'claims'), { recursive: true });
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
}

export function sharedAdmin(): SharedAdminState {
  return JSON.parse(readFileSync(stateFile, 'utf8')) as SharedAdminState;
}

/** True for the first caller in the whole run (every worker): the claim is a file created exclusively. */
function claim(name: string): boolean {
  try {
    closeSync(openSync(path.join(dir, 'claims', name), 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * A code for the shared administrator that nobody else in the run will use: the first claim a
 * TOTP code (the step after the set-up's, or the present one, both inside the server's ±1
 * window right now), later claims a recovery code each.
 */
export function claimAdminCode(): { code: string; kind: 'totp' | 'recovery' } {
  const state = sharedAdmin();
  if (claim('totp')) return { code: totpCodeForStep(state.secret, Math.max(state.lastStep + 1, totpStepNow())), kind: 'totp' };
  const index = state.recoveryCodes.findIndex((_code, i) => claim(`recovery-${i}`));
  if (index < 0) throw new Error('e2e: all ten recovery codes of the shared administrator are used; add sessions in admin-mfa.setup.ts');
  return { code: state.recoveryCodes[index]!, kind: 'recovery' };
}

/** A recovery code of the shared administrator that nobody else in the run will use (a test of the recovery-code keyboard). */
export function claimAdminRecoveryCode(): string {
  const state = sharedAdmin();
  const index = state.recoveryCodes.findIndex((_code, i) => claim(`recovery-${i}`));
  if (index < 0) throw new Error('e2e: all ten recovery codes of the shared administrator are used; add sessions in admin-mfa.setup.ts');
  return state.recoveryCodes[index]!;
}

/** A signed-in administrator session that has not stepped up, for this test alone. */
export function claimPlainAdminSession(): { token: string; user: SessionUser } {
  const state = sharedAdmin();
  const index = state.plainTokens.findIndex((_token, i) => claim(`plain-${i}`));
  if (index < 0) throw new Error('e2e: no spare administrator session left; make more in admin-mfa.setup.ts');
  return { token: state.plainTokens[index]!, user: state.user };
}

/** The elevated administrator session every test may share (never sign it out). */
export function sharedElevatedAdmin(): { token: string; user: SessionUser } {
  const state = sharedAdmin();
  return { token: state.elevatedToken, user: state.user };
}


interface PrivateFactor {
  secret: string;
  lastStep: number;
  recoveryCodes: string[];
}
const privateFactors = new Map<string, PrivateFactor>();

/** The next unused code of a private server's administrator: a TOTP step not used yet within the window, else a recovery code. */
export function privateAdminCode(baseURL: string): string {
  const factor = privateFactors.get(baseURL);
  if (!factor) throw new Error(`e2e: the administrator of ${baseURL} has no factor set up by this worker`);
  const step = Math.max(factor.lastStep + 1, totpStepNow());
  if (step <= totpStepNow() + 1) {
    factor.lastStep = step;
    return totpCodeForStep(factor.secret, step);
  }
  const recovery = factor.recoveryCodes.shift();
  if (!recovery) throw new Error('e2e: the private administrator has no code left');
  return recovery;
}

async function json(res: Awaited<ReturnType<APIRequestContext['post']>>) {
  if (!res.ok()) throw new Error(`${res.url()}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * An elevated administrator session: the shared one on the run's server, or on a private
 * server (`baseURL`) a new one through sign-in (with a code once a factor exists), Admin
 * Access and its code, setting the factor up the first time.
 */
export async function elevatedAdminSession(request: APIRequestContext, baseURL?: string): Promise<{ token: string; user: SessionUser }> {
  if (!baseURL) return sharedElevatedAdmin();
  let signIn = await json(await request.post(`${baseURL}/api/auth/signin`, { data: e2eAdmin }));
  if (signIn.status === 'mfa_required') {
    signIn = await json(await request.post(`${baseURL}/api/auth/signin/mfa`, { data: { challenge: signIn.challenge, code: privateAdminCode(baseURL) } }));
  }
  const user = signIn.user as SessionUser;
  const headers = { authorization: `Bearer ${signIn.token as string}` };
  const offer = await json(await request.post(`${baseURL}/api/admin/access`, { headers, data: e2eAdmin }));
  if (offer.status === 'mfa_setup') privateFactors.set(baseURL, { secret: offer.secret as string, lastStep: -1, recoveryCodes: [] });
  const granted = await json(await request.post(`${baseURL}/api/admin/access`, { headers, data: { ...e2eAdmin, code: privateAdminCode(baseURL) } }));
  if (Array.isArray(granted.recoveryCodes)) privateFactors.get(baseURL)!.recoveryCodes = granted.recoveryCodes as string[];
  return { token: granted.token as string, user };
}

/** Opens Admin Access from the admin area and submits the bootstrap admin's email and password; the dialog is returned at its code step. */
export async function submitAdminCredentials(page: Page) {
  await page.goto('/admin/employers');
  await page.getByRole('main').getByRole('button', { name: 'Admin Access' }).click();
  const dialog = page.getByRole('dialog', { name: 'Admin Access' });
  await dialog.getByLabel('Admin Email').fill(e2eAdmin.email);
  await dialog.getByLabel('Admin Password', { exact: true }).fill(e2eAdmin.password);
  await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
  return dialog;
}

/** The id of the employer named exactly `name`, found through the admin list as the shared elevated admin. */
export async function employerIdByName(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get(`/api/admin/employers?search=${encodeURIComponent(name)}`, {
    headers: { authorization: `Bearer ${sharedElevatedAdmin().token}` },
  });
  expect(res.status()).toBe(200);
  const { employers } = (await res.json()) as { employers: { id: string; name: string }[] };
  const found = employers.find((e) => e.name === name);
  expect(found, `employer ${name}`).toBeTruthy();
  return found!.id;
}

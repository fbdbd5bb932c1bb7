/**
 * Shared pieces of the fault scripts (`npm run test:crash`, `test:instances`,
 * `test:pg-restart`): the server built once and run as real processes that can be killed,
 * scratch databases, a throw-away PostgreSQL cluster and Redis, and an HTTP client that
 * records which writes were acknowledged.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { elevatedAdminToken } from './admin-factor';

export const BUILD_OUT = path.resolve(process.env.BUILD_OUT ?? '.tmp/build-hardening');
/** Ports 4205-4215 belong to these scripts (shared machine). */
export const PORTS = { crash: 4205, instances: [4206, 4207, 4208], pgRestart: 4209, redis: 4215, pgCluster: 5499 } as const;
export const ADMIN = { email: 'faults.admin@example.test', password: 'sturdy operator passphrase' };

/** Bundles the server once per script run, as `npm run build:server` does (scripts/build-server.mjs: the server and the embedded database's worker). */
export async function buildServer(): Promise<string> {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { env: { ...process.env, BUILD_OUT }, stdio: ['ignore', 'ignore', 'inherit'] });
  return path.join(BUILD_OUT, 'server', 'main.js');
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to /readyz answering 200. */
  startMs: number;
  /** Everything the process wrote, for a failure report. */
  output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the built server as its own process and waits until /readyz says ok. */
export async function startServer(entry: string, port: number, env: Record<string, string>): Promise<ServerProcess> {
  const started = performance.now();
  const output: string[] = [];
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_DATA: '0',
      SERVE_CLIENT: '0',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      AUDIT_HMAC_SECRET: 'faults-audit-secret-0123456789',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}:\n${output.join('').slice(-2000)}`);
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server on ${port} not ready after 60 s:\n${output.join('').slice(-2000)}`);
    await sleep(50);
  }
  return {
    url,
    port,
    child,
    startMs: Math.round(performance.now() - started),
    output,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export interface Response {
  status: number;
  body: unknown;
  ms: number;
}

/** One HTTP call; a refused or reset connection resolves to status 0 instead of throwing. */
export async function call(url: string, options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Response> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body, ms: performance.now() - started };
  } catch {
    return { status: 0, body: undefined, ms: performance.now() - started };
  }
}

let seq = 0;
/** Registration data for a new, unique member. */
export function memberData(tag: string) {
  seq += 1;
  const n = (Number.parseInt(randomUUID().slice(0, 6), 16) + seq) % 100_000;
  return {
    firstName: 'Fault',
    lastName: `Member ${seq}`,
    email: `fault.${tag}.${seq}.${randomUUID().slice(0, 6)}@example.test`,
    company: `Fault Employer ${tag} ${seq % 3}`,
    lhmpId: `LQ${String(n).padStart(5, '0')}`,
    password: `sturdy passphrase ${randomUUID().slice(0, 8)}`,
  };
}

/** Registers (retrying a taken programme ID) and signs in; returns the token and ids. */
export async function registerAndSignIn(base: string, tag: string): Promise<{ email: string; password: string; userId: string; token: string }> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const data = memberData(tag);
    const reg = await call(`${base}/api/auth/register`, { method: 'POST', body: data });
    if (reg.status === 409) continue;
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
    const signin = await call(`${base}/api/auth/signin`, { method: 'POST', body: { email: data.email, password: data.password } });
    if (signin.status !== 200) throw new Error(`sign-in: ${signin.status} ${JSON.stringify(signin.body)}`);
    const body = signin.body as { token: string; user: { id: string } };
    return { email: data.email, password: data.password, userId: body.user.id, token: body.token };
  }
  throw new Error('could not register a member');
}

/**
 * The bootstrap administrator, signed in and elevated through Admin Access with its second
 * factor (set up on first use, see admin-factor.ts); returns the NEW elevated token.
 */
export async function elevatedAdmin(base: string): Promise<string> {
  return elevatedAdminToken(base, ADMIN);
}

/** Creates live popups members can snooze (max 10 snoozes each). */
export async function createPopups(base: string, adminToken: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await call(`${base}/api/admin/popups`, {
      method: 'POST',
      token: adminToken,
      body: { title: `Fault popup ${i}`, message: 'Stay well', target: 'home', startAt: new Date(Date.now() - 3_600_000).toISOString(), endAt: new Date(Date.now() + 7 * 86_400_000).toISOString(), isActive: true, maxSnoozes: 10, priority: 5 },
    });
    if (res.status !== 201) throw new Error(`create popup: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push((res.body as { id: string }).id);
  }
  return ids;
}

/** A small seeded PRNG (mulberry32), so a run's timing choices can be repeated. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

/** A throw-away Redis on its own port (never the machine's shared one). */
export async function startRedis(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 100; i += 1) {
    try {
      execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' });
      return {
        url: `redis://127.0.0.1:${port}`,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      };
    } catch {
      await sleep(50);
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on ${port} did not start`);
}

/** The PostgreSQL server binaries (Debian layout: /usr/lib/postgresql/<version>/bin). */
function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? execFileSync('ls', [root]).toString().split('\n').filter(Boolean).sort((x, y) => Number(y) - Number(x)) : [];
  for (const v of versions) if (existsSync(`${root}/${v}/bin/${name}`)) return `${root}/${v}/bin/${name}`;
  throw new Error(`${name} not found under ${root}`);
}

/**
 * A throw-away PostgreSQL cluster of our own on `port`, owned by the postgres user, that the
 * script may stop and start at will. The machine's shared server is never touched.
 */
export function ownCluster(port: number) {
  const dir = `/tmp/wellhaven-pg-${port}`;
  const asPostgres = (cmd: string) => execFileSync('su', ['postgres', '-c', cmd], { stdio: 'pipe' }).toString();
  const ctl = pgBin('pg_ctl');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    init() {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      execFileSync('chown', ['postgres:postgres', dir]);
      asPostgres(`${pgBin('initdb')} -D ${dir}/data -U postgres --auth=trust -E UTF8 >/dev/null`);
    },
    start() {
      asPostgres(`${ctl} -D ${dir}/data -l ${dir}/log -w -t 30 -o "-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null`);
    },
    /** `fast` disconnects clients cleanly; `immediate` is a crash (recovery on start). */
    stop(mode: 'fast' | 'immediate' = 'fast') {
      asPostgres(`${ctl} -D ${dir}/data -m ${mode} -w -t 30 stop >/dev/null`);
    },
    /** Freezes (SIGSTOP) or thaws (SIGCONT) the postmaster and every backend: a hung server. */
    freeze(on: boolean) {
      const postmaster = readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]!.trim();
      const children = execFileSync('pgrep', ['-P', postmaster], { stdio: 'pipe' }).toString().split('\n').filter(Boolean);
      execFileSync('kill', [on ? '-STOP' : '-CONT', postmaster, ...children]);
    },
    isReady(): boolean {
      try {
        execFileSync(pgBin('pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], { stdio: 'pipe' });
        return true;
      } catch {
        return false;
      }
    },
    destroy() {
      try {
        asPostgres(`${ctl} -D ${dir}/data -m immediate -w -t 30 stop >/dev/null 2>&1 || true`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Prints a titled block of figures, one per line. */
export function report(title: string, figures: Record<string, string | number>) {
  console.log(`\n## ${title}`);
  for (const [key, value] of Object.entries(figures)) console.log(`  ${key}: ${value}`);
}

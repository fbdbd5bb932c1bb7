import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { type Database, openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';

interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Runs autocannon against one URL for a bounded time. */
export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ duration: 5, connections: 50, ...options });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The baseline every ratio is measured against: a bare node:http JSON endpoint. */
export async function startBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ ok: true, user: { id: 'x', email: 'a@b.test' } });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

/** The real app on PostgreSQL when DATABASE_URL is set (else in-memory PGlite), listening on a free port. */
export async function startApp(env: Record<string, string> = {}): Promise<{ app: FastifyInstance; database: Database; url: string; close(): Promise<void> }> {
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  const database = await openDatabase({ databaseUrl: scratch?.url, poolMax: 20 });
  await database.migrate();
  const config = loadConfig({ NODE_ENV: 'production', SERVE_CLIENT: '0', LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_IP: '100000000', ...env });
  const app = await buildApp({ config, database });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    database,
    url: address,
    close: async () => {
      await app.close();
      await database.close();
      await scratch?.drop();
    },
  };
}

export const ratio = (value: number, baseline: number) => Math.round((value / baseline) * 1000) / 1000;

/** A throw-away PostgreSQL database on the server DATABASE_URL names, so benchmarks never touch real data. */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `wellhaven_bench_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

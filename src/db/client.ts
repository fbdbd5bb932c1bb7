import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PgliteThread } from './pglite-thread';
import * as schema from './schema';

export type Schema = typeof schema;
/** The query interface both drivers share; repositories only see this. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * The rows of a raw `db.execute` result. node-postgres and PGlite both answer `{ rows }`,
 * but Drizzle's shared execute type differs per driver and does not say so; a bare array is
 * accepted too.
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  const r = result as { rows?: T[] } | T[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

/**
 * A PostgreSQL array literal (`{"a","b",NULL}`) passed as ONE parameter and cast in SQL
 * (`${pgArray(values)}::text[]`): a whole batch of a column in one bind value, whatever its size.
 */
export function pgArray(values: readonly (string | number | null)[]): string {
  return `{${values
    .map((v) => (v === null ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`))
    .join(',')}}`;
}

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** Applies the committed drizzle-kit migrations. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Runs `fn` while holding a database-wide lock (a PostgreSQL advisory lock), so instances
   * starting together migrate and seed one after another instead of racing.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** The embedded database's whole data directory as one uncompressed tarball (the test suite's template); absent for PostgreSQL. */
  dumpDataDir?(): Promise<Blob>;
  /** The PostgreSQL pool right now (metrics); absent for the embedded database. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; absent means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * An in-memory PGlite starts from this dump (`dumpDataDir`) of an already migrated one
   * instead of running initdb: the test suite's template, about six times faster to open.
   */
  loadDataDir?: Blob | undefined;
  poolMax?: number;
  /** How long a request waits for a connection before failing (ms). */
  connectTimeoutMs?: number;
  /**
   * How long a query may go unanswered before it fails (ms): a hung server (network
   * partition, frozen host) must give a fast 503, not a request that never ends. Migrations
   * and the start-up lock use their own connection without it.
   */
  queryTimeoutMs?: number;
  onPoolError?: (err: Error) => void;
}

/** Advisory lock key for start-up work (migrations, seed, bootstrap admin): "wellhave" in ASCII. */
const STARTUP_LOCK = 0x77656c6c68617665n.toString();

/** The committed migrations: the nearest drizzle/ folder above this module (source or bundle). */
export const migrationsFolder = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'drizzle');
    // eslint-disable-next-line security/detect-non-literal-fs-filename -- this module's own location, not input
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('drizzle/ migrations folder not found');
    dir = parent;
  }
})();

/** Opens the embedded PGlite or a PostgreSQL pool behind one Drizzle interface. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
      query_timeout: options.queryTimeoutMs ?? 5000,
      idleTimeoutMillis: 30_000,
      // Request-sized reads on few cores: a parallel plan's workers cost more to start than they
      // save (admin search "ez" on the million: 95 ms with them, 33 without). docs/decisions/admin-list-queries.md
      options: '-c max_parallel_workers_per_gather=0',
    });
    /** A connection of its own, without the query timeout, for long start-up work. */
    const dedicated = async () => {
      const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: options.connectTimeoutMs ?? 2000 });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    };
    // A dropped connection (server restart) must not crash the process; the pool reconnects.
    pool.on('error', (err) => options.onPoolError?.(err));
    // The pool listens only to idle clients. A client checked out when the server dies (in a
    // transaction, between two queries) emits 'error' too, and with no listener that ends the
    // process; the query it was running already fails with the error, and the pool discards it.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        const client = await dedicated();
        try {
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.end();
        }
      },
      ping: async () => {
        // Readiness must answer quickly even when the server hangs: a shorter bound than queries.
        // (pg honours query_timeout per query; its type definitions do not list it.)
        await pool.query({ text: 'select 1', query_timeout: Math.min(2000, options.queryTimeoutMs ?? 5000) } as pg.QueryConfig);
      },
      exclusive: async (fn) => {
        // Waiting for another instance's migrations can take long: no query timeout here.
        const client = await dedicated();
        try {
          await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
          return await fn();
        } finally {
          await client.end();
        }
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }),
      close: () => pool.end(),
    };
  }
  // PGlite has no lock of its own: two processes on one data directory would corrupt it.
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  // The database runs on a worker thread of its own (pglite-thread.ts).
  const client = await PgliteThread.open(options.dataDir, options.loadDataDir).catch((err: unknown) => {
    release();
    throw err;
  });
  // Drizzle's driver calls only query and transaction, which the thread's handle has.
  const forDrizzle = client as unknown as PGlite;
  const db = drizzlePglite(forDrizzle, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(forDrizzle, { schema }), { migrationsFolder }),
    ping: async () => {
      await client.ownQuery('select 1');
    },
    // One process owns an embedded database; there is nobody to race.
    exclusive: (fn) => fn(),
    dumpDataDir: () => client.dumpDataDir(),
    close: async () => {
      await client.close();
      release();
    },
  };
}

/**
 * Claims an embedded data directory for this process with a lock file beside it. A lock left
 * by a process that no longer runs (a crash, kill -9) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = `${path.resolve(dataDir)}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      // eslint-disable-next-line security/detect-non-literal-fs-filename -- DATA_DIR from configuration
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // eslint-disable-next-line security/detect-non-literal-fs-filename -- DATA_DIR from configuration
      const owner = Number(readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop that process first, or use DATABASE_URL.`,
          { cause: err },
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/**
 * The embedded database on a thread of its own (docs/decisions/request-path-costs.md).
 *
 * PGlite runs on the thread that opens it, and a PGlite with extensions loaded (pg_trgm,
 * btree_gin: WebAssembly modules linked at run time) makes every JavaScript answer on that
 * thread dearer, including answers that never reach the database (`/healthz`: 5-7 µs). Here it
 * runs on a worker thread (pglite-worker.ts): the server's thread keeps its speed, and the
 * database's work runs on the second core while the server's thread answers other requests.
 *
 * This is the handle Drizzle's PGlite driver is given: its two calls, `query` and `transaction`,
 * posted to the worker and answered as PgliteForDrizzle answers them there. A failed statement's
 * error is rebuilt here as PGlite's own (a DatabaseError with its SQLSTATE fields, the text and
 * the parameters on it). A query outside a transaction waits in the worker for any open one to
 * end, as before.
 */

/** What opens the worker's database: a data directory, or (in memory) the dump to start from. */
export interface Opening {
  dataDir: string | undefined;
  loadDataDir: ArrayBuffer | undefined;
  /** PostgreSQL's WebAssembly, compiled once per process (a module crosses threads without being compiled again). */
  wasmModule: WebAssembly.Module;
  /** PostgreSQL's files (share/, lib/), read once per process. */
  fsBundle: Blob;
}

/** PGlite's compiled PostgreSQL and its files, once per process: a process opening many databases (the test suite) compiles 9 MB once. */
let runtime: Promise<Pick<Opening, 'wasmModule' | 'fsBundle'>> | undefined;
function pgliteRuntime() {
  runtime ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    // eslint-disable-next-line security/detect-non-literal-fs-filename -- the installed package's own files, not input
    const [wasm, data] = await Promise.all([readFile(path.join(dist, 'pglite.wasm')), readFile(path.join(dist, 'pglite.data'))]);
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  // A failed read (EMFILE, say) is not kept: the next open tries again.
  runtime.catch(() => (runtime = undefined));
  return runtime;
}

type Options = Pick<QueryOptions, 'rowMode'>;

/** A call posted to the worker; `id` pairs it with its reply. */
export type Call = { id: number } & (
  | { op: 'query'; text: string; params: unknown[]; options: Options | undefined; tx: number | undefined }
  | { op: 'open'; opening: Opening }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'own-query'; text: string }
  | { op: 'statements' }
  | { op: 'dump' }
  | { op: 'close' }
);
type Op = Call['op'];

export interface WireError {
  message: string;
  name: string;
  /** A PostgreSQL error (PGlite's DatabaseError), its fields in `fields`. */
  database: boolean;
  fields: Record<string, string | number | unknown[] | undefined>;
}

export type Reply = { id: number; value: unknown; error?: undefined } | { id: number; error: WireError };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** The caller's query options, put back on a failed statement's error (the error log reads them). */
  options?: QueryOptions | undefined;
}

/** The worker's entry: the source beside this module (Node's own type stripping runs it), or the bundle's beside the built server. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);

/**
 * Workers whose database was closed, kept for the next one this process opens (the test suite
 * opens one per file): a warm worker opens a database in about half the time a new one takes.
 */
const idleWorkers: Worker[] = [];
const MAX_IDLE_WORKERS = 2;

function startWorker(): Worker {
  if (FROM_SOURCE && !process.features.typescript) {
    throw new Error('The embedded database runs from source on Node 22.18 or later (npm scripts use the project\'s Node 24); run the built server on older versions.');
  }
  const worker = new Worker(WORKER_URL, { name: 'embedded-database' });
  // A kept worker that ends is forgotten; while a database uses it, its handle hears of it too.
  worker.on('exit', () => {
    const at = idleWorkers.indexOf(worker);
    if (at >= 0) idleWorkers.splice(at, 1);
  });
  worker.on('error', () => undefined);
  return worker;
}

function rebuilt(wire: WireError, options: QueryOptions | undefined): Error {
  if (!wire.database) return Object.assign(new Error(wire.message), wire.fields, { name: wire.name });
  const err = new messages.DatabaseError(wire.message, Number(wire.fields.length ?? 0), 'error');
  const { length: _length, name: _name, ...fields } = wire.fields;
  return Object.assign(err, fields, 'query' in fields ? { queryOptions: options } : {});
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #lastId = 0;
  #stopped: Error | undefined;
  #closing: Promise<void> | undefined;
  readonly #onMessage = (reply: Reply) => this.#settle(reply);
  readonly #onError = (err: Error) => this.#stop(new Error(`The embedded database stopped: ${err.message}`, { cause: err }));
  readonly #onExit = () => this.#stop(new Error('The embedded database is closed'));
  /** A reply that could not be read cannot be paired with its call: every waiting call fails rather than wait for ever. */
  readonly #onMessageError = (err: Error) => this.#stop(new Error(`The embedded database's answer could not be read: ${err.message}`, { cause: err }));

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', this.#onMessage).on('messageerror', this.#onMessageError).on('error', this.#onError).on('exit', this.#onExit);
  }

  /** Opens the database on a worker (a kept one, or a new one); rejects if it cannot be opened. */
  static async open(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<PgliteThread> {
    // A dump read from a file is a file-backed Blob, which cannot cross threads: its bytes go instead.
    const dump = await loadDataDir?.arrayBuffer();
    const opening: Opening = { dataDir, loadDataDir: dump, ...(await pgliteRuntime()) };
    const thread = new PgliteThread(idleWorkers.pop() ?? startWorker());
    try {
      await thread.#call({ op: 'open', opening }, undefined, dump ? [dump] : []);
    } catch (err) {
      thread.#stopped ??= new Error('The embedded database is closed');
      await thread.#worker.terminate();
      throw err;
    }
    return thread;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(text, params, options, undefined);
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = (await this.#call({ op: 'begin' })) as number;
    let closed = false;
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (closed) return Promise.reject(new Error('Transaction is closed'));
        return this.#query<R>(text, params, options, id);
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      closed = true;
      await this.#call({ op: 'end', tx: id, commit: false });
      throw err;
    }
    closed = true;
    await this.#call({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** PGlite's own `query` with its own parsers (readiness, tests). */
  ownQuery<T>(text: string): Promise<Results<T>> {
    return this.#call({ op: 'own-query', text }) as Promise<Results<T>>;
  }

  /** Named statements the worker's adapter holds now (tests). */
  statementCount(): Promise<number> {
    return this.#call({ op: 'statements' }) as Promise<number>;
  }

  /** The whole data directory as one uncompressed tarball. */
  dumpDataDir(): Promise<Blob> {
    return this.#call({ op: 'dump' }) as Promise<Blob>;
  }

  /** Closes the database (open transactions finish first); its worker is kept for the next one this process opens, or ended. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    // Stopped by a failure (an answer that could not be read, say): the worker may still run, and is ended.
    if (this.#stopped) return void (await this.#worker.terminate());
    await this.#call({ op: 'close' });
    this.#stopped = new Error('The embedded database is closed');
    this.#worker.off('message', this.#onMessage).off('messageerror', this.#onMessageError).off('error', this.#onError).off('exit', this.#onExit);
    // Kept only with nothing of this database's still on its way back (a reply could reach the next one).
    const clean = this.#pending.size === 0;
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    this.#pending.clear();
    if (clean && idleWorkers.length < MAX_IDLE_WORKERS) {
      this.#worker.unref();
      idleWorkers.push(this.#worker);
    } else {
      await this.#worker.terminate();
    }
  }

  #stop(err: Error) {
    this.#stopped ??= err;
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    this.#pending.clear();
    this.#worker.unref();
  }

  #query<T>(text: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx: number | undefined): Promise<Results<T>> {
    // Only the row mode crosses: the parsers are functions, and the worker's adapter has Drizzle's.
    const wire = options?.rowMode ? { rowMode: options.rowMode } : undefined;
    return this.#call({ op: 'query', text, params: params ?? [], options: wire, tx }, options) as Promise<Results<T>>;
  }

  #call(call: { op: Op } & Record<string, unknown>, options?: QueryOptions, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = (this.#lastId += 1);
    return new Promise((resolve, reject) => {
      try {
        this.#worker.postMessage({ ...call, id }, transfer);
      } catch (err) {
        reject(err);
        return;
      }
      // The worker keeps the process alive only while a call waits for it.
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject, options });
    });
  }

  #settle(reply: Reply) {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.error) pending.reject(rebuilt(reply.error, pending.options));
    else pending.resolve(reply.value);
  }
}

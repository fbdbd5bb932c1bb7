/**
 * The embedded database's own thread (src/db/pglite-thread.ts starts it): PGlite, its
 * extensions and the statement adapter Drizzle is given, answering the calls the server's
 * thread posts. It opens one database at a time (`open`), and after `close` waits for the
 * next. Run by Node as it is (type stripping) from the source, and bundled beside the server
 * by scripts/build-server.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { PGlite, type Transaction, messages } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PgliteForDrizzle } from './pglite-statements.ts';
import type { Call, Opening, Reply, WireError } from './pglite-thread.ts';

const port = parentPort!;

/** The outcome a rolled back transaction's callback throws: not an error, so never a reply's. */
const ROLLED_BACK = Symbol('rolled back');

interface OpenTransaction {
  /** The transaction's handle once PGlite has begun it; rejects if it could not begin. */
  handle: Promise<Transaction>;
  /** Ends the transaction: commits (true) or rolls back (false). */
  finish: (commit: boolean) => void;
  /** Settles when PGlite has committed or rolled back. */
  ended: Promise<void>;
}

/**
 * What a failure is across the thread boundary: its message, name, kind and PostgreSQL fields,
 * never a function or the query options. `query` and `params` cross even when undefined (PGlite
 * sets both on a failed COMMIT): the error log keeps a failed statement's text alone by them.
 */
function wireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', database: false, fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(err)) {
    if (key === 'query' || key === 'params' || typeof value === 'string' || typeof value === 'number') fields[key] = value as WireError['fields'][string];
  }
  return { message: err.message, name: err.name, database: err instanceof messages.DatabaseError, fields };
}

/** The database this worker has open now, with what Drizzle's handle keeps about it. */
interface Session {
  client: PGlite;
  /** Set by `close`: no new transaction or query outside one; open transactions finish first, as PGlite's own close waits for them. */
  closing: Promise<void> | undefined;
  forDrizzle: PgliteForDrizzle;
  transactions: Map<number, OpenTransaction>;
  lastTransaction: number;
}

let session: Session | undefined;

async function open(opening: Opening): Promise<Session> {
  const client = await PGlite.create(opening.dataDir, {
    extensions: { pg_trgm, btree_gin },
    pgliteWasmModule: opening.wasmModule,
    fsBundle: opening.fsBundle,
    ...(opening.loadDataDir ? { loadDataDir: new Blob([opening.loadDataDir]) } : {}),
  });
  return { client, closing: undefined, forDrizzle: new PgliteForDrizzle(client), transactions: new Map(), lastTransaction: 0 };
}

function begin(open: Session): number {
  const id = (open.lastTransaction += 1);
  let began!: (tx: Transaction) => void;
  let finish!: (commit: boolean) => void;
  const committed = new Promise<boolean>((resolve) => (finish = resolve));
  const handle = new Promise<Transaction>((resolve) => (began = resolve));
  const ended = open.forDrizzle
    .transaction(async (tx) => {
      began(tx);
      if (!(await committed)) throw ROLLED_BACK;
    })
    .catch((err: unknown) => {
      if (err !== ROLLED_BACK) throw err;
    });
  // A transaction that cannot begin (the database closed) fails its handle too.
  open.transactions.set(id, { handle: Promise.race([handle, ended.then(() => handle)]), finish, ended });
  return id;
}

async function answer(call: Call): Promise<unknown> {
  if (call.op === 'open') {
    if (session) throw new Error('The embedded database is already open');
    session = await open(call.opening);
    return undefined;
  }
  const current = session;
  if (!current) throw new Error('The embedded database is closed');
  // Closing: only what an open transaction needs to finish (its queries, its end) and the close itself.
  if (current.closing && call.op !== 'end' && call.op !== 'close' && !(call.op === 'query' && call.tx !== undefined)) {
    throw new Error('The embedded database is closed');
  }
  switch (call.op) {
    case 'query': {
      if (call.tx === undefined) return current.forDrizzle.query(call.text, call.params, call.options);
      const tx = current.transactions.get(call.tx);
      if (!tx) throw new Error('Transaction is closed');
      return (await tx.handle).query(call.text, call.params, call.options);
    }
    case 'begin': {
      const id = begin(current);
      try {
        await current.transactions.get(id)!.handle;
      } catch (err) {
        current.transactions.delete(id);
        throw err;
      }
      return id;
    }
    case 'end': {
      const tx = current.transactions.get(call.tx);
      if (!tx) throw new Error('Transaction is closed');
      current.transactions.delete(call.tx);
      tx.finish(call.commit);
      await tx.ended;
      return undefined;
    }
    case 'own-query':
      return current.client.query(call.text);
    case 'statements':
      return current.forDrizzle.statementCount;
    case 'dump':
      return current.client.dumpDataDir('none');
    case 'close':
      current.closing ??= current.client.close().finally(() => {
        if (session === current) session = undefined;
      });
      await current.closing;
      return undefined;
  }
}

/** Posts a reply; one that cannot be cloned is answered with that error instead. */
function reply(id: number, value: unknown) {
  try {
    port.postMessage({ id, value } satisfies Reply);
  } catch (err) {
    port.postMessage({ id, error: wireError(err) } satisfies Reply);
  }
}

port.on('message', (call: Call) => {
  answer(call).then(
    (value) => reply(call.id, value),
    (err: unknown) => port.postMessage({ id: call.id, error: wireError(err) } satisfies Reply),
  );
});

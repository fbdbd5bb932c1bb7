import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * argon2id on worker threads of their own, at a lower CPU priority than the event loop (Linux).
 *
 * `@node-rs/argon2`'s async functions run on libuv's thread pool at the same priority as the
 * event loop: on a 2-core machine two hashes took the cores and every other request (a
 * member's GET /api/auth/me) waited for a time slice. Here each hash runs synchronously on a
 * worker thread that lowered its own nice value (10) first, so the kernel gives the event loop
 * the core whenever it has work, and the hashes use the rest. On Linux a nice value is a
 * thread's own; elsewhere (macOS: the whole process) the priority is left alone.
 *
 * How many hashes run at once is the hash pool's business (hash-pool.ts): threads are started
 * as calls need them (never more than calls at once, at most MAX_THREADS) and kept; an idle
 * thread is unref'd, so an idle process exits as before.
 */
export const HASH_THREAD_NICE = 10;
const MAX_THREADS = 64;

type Job = { op: 'hash'; password: string; options: object } | { op: 'verify'; hash: string; password: string };
type Reply = { id: number; ok: true; value: string | boolean } | { id: number; ok: false; message: string };

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.nice) {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}
const argon2 = require(workerData.argon2);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash' ? argon2.hashSync(job.password, job.options) : argon2.verifySync(job.hash, job.password);
    parentPort.postMessage({ id: job.id, ok: true, value });
  } catch (err) {
    parentPort.postMessage({ id: job.id, ok: false, message: err && err.message ? err.message : String(err) });
  }
});
`;

interface Thread {
  worker: Worker;
  /** The job running on it, if any. */
  busy?: { id: number; resolve: (v: string | boolean) => void; reject: (e: Error) => void };
}

const argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');
const threads: Thread[] = [];
const waiting: Array<{ job: Job; resolve: (v: string | boolean) => void; reject: (e: Error) => void }> = [];
let nextId = 0;

function spawn(): Thread {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { argon2: argon2Path, nice: process.platform === 'linux' ? HASH_THREAD_NICE : 0 },
    // Like the main thread, a hash needs its 19 MiB, not more.
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  });
  worker.unref();
  const thread: Thread = { worker };
  worker.on('message', (reply: Reply) => {
    const busy = thread.busy;
    thread.busy = undefined;
    worker.unref();
    if (busy && busy.id === reply.id) {
      if (reply.ok) busy.resolve(reply.value);
      else busy.reject(new Error(reply.message));
    }
    next(thread);
  });
  const fail = (err: Error) => {
    const at = threads.indexOf(thread);
    if (at >= 0) threads.splice(at, 1);
    thread.busy?.reject(err);
    thread.busy = undefined;
    // A waiting job gets a new thread.
    const w = waiting.shift();
    if (w) run(w.job).then(w.resolve, w.reject);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`argon2 thread exited (${code})`)));
  threads.push(thread);
  return thread;
}

function start(thread: Thread, job: Job, resolve: (v: string | boolean) => void, reject: (e: Error) => void) {
  const id = (nextId += 1);
  thread.busy = { id, resolve, reject };
  // Held while it hashes (a CLI awaiting a hash must not exit), let go when idle.
  thread.worker.ref();
  thread.worker.postMessage({ ...job, id });
}

function next(thread: Thread) {
  const w = waiting.shift();
  if (w) start(thread, w.job, w.resolve, w.reject);
}

function run(job: Job): Promise<string | boolean> {
  return new Promise((resolve, reject) => {
    const idle = threads.find((t) => !t.busy) ?? (threads.length < MAX_THREADS ? spawn() : undefined);
    if (idle) start(idle, job, resolve, reject);
    else waiting.push({ job, resolve, reject });
  });
}

/** argon2 hash with `options`, on a low-priority thread. */
export const hashOnThread = (password: string, options: object): Promise<string> => run({ op: 'hash', password, options }) as Promise<string>;

/** argon2 verification on a low-priority thread; throws on a malformed hash (as `verify` does). */
export const verifyOnThread = (hash: string, password: string): Promise<boolean> => run({ op: 'verify', hash, password }) as Promise<boolean>;

/** Threads started so far (tests). */
export const argon2ThreadIds = (): number[] => threads.map((t) => t.worker.threadId);

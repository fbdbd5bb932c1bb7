import pino from 'pino';

/** What the batch hands its lines to: pino's destination (sonic-boom), or a test's stream. */
export interface LogSink {
  write(chunk: string): unknown;
  flush?(callback: (err?: Error) => void): void;
  flushSync?(): void;
}

/**
 * Log lines joined in memory and handed on in chunks of at least `minLength` characters (64 KiB
 * by default: each chunk is a write(2), and under load a 4 KiB chunk's write cost a few µs a
 * request; docs/decisions/buffered-logging.md).
 * sonic-boom can buffer by itself (`minLength`), but it appends every line to its pending
 * string and measures that whole string's UTF-8 length again for each line, so its cost
 * grows with the buffer; here a line costs an array push and each chunk one measurement.
 */
export class BatchedLog {
  #lines: string[] = [];
  #length = 0;
  #deferred: (() => string) | undefined;

  constructor(
    private readonly sink: LogSink,
    private readonly minLength = 64 * 1024,
  ) {}

  /**
   * Lines kept elsewhere as their fields and made only when this batch needs them (the access
   * lines, plugins/request-log.ts): `take` is asked for them before any other line is added
   * and at every flush, so every line keeps its place and waits no longer than any other.
   * One source only: a second would leave the first's lines unasked for.
   */
  defer(take: () => string): void {
    if (this.#deferred) throw new Error('This log already takes deferred lines from another source');
    this.#deferred = take;
  }

  write(line: string): void {
    this.#takeDeferred();
    this.#add(line);
  }

  /** Hands what is held to the sink now; `callback` (pino's `logger.flush`) once the sink has written it. */
  flush(callback?: (err?: Error) => void): void {
    this.#takeDeferred();
    this.#handOn();
    if (!callback) return;
    if (this.sink.flush) this.sink.flush(callback);
    else callback();
  }

  #takeDeferred(): void {
    const deferred = this.#deferred?.();
    if (deferred) this.#add(deferred);
  }

  #add(line: string): void {
    this.#lines.push(line);
    this.#length += line.length;
    if (this.#length >= this.minLength) this.#handOn();
  }

  #handOn(): void {
    if (this.#lines.length === 0) return;
    const chunk = this.#lines.join('');
    this.#lines = [];
    this.#length = 0;
    this.sink.write(chunk);
  }

  /** At exit: what is held, and what the sink still buffers, written before the process ends. */
  flushSync(): void {
    this.flush();
    this.sink.flushSync?.();
  }
}

/**
 * The server's log destination: standard output, written asynchronously in batches. A line
 * waits at most `maxWaitMs` when the server is quiet; the process's exit writes what is left
 * (docs/decisions/buffered-logging.md).
 */
export function batchedStdout(maxWaitMs = 1000): BatchedLog {
  const log = new BatchedLog(pino.destination({ dest: 1, sync: false }));
  setInterval(() => log.flush(), maxWaitMs).unref();
  process.once('exit', () => log.flushSync());
  return log;
}

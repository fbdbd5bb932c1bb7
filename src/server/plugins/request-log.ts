import { hostname } from 'node:os';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LevelWithSilentOrString, type Logger } from 'pino';
import { BatchedLog } from '../lib/batched-log';

type LogArgs = Parameters<Logger['info']>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made only when something is logged through it. Fastify makes a child
 * logger per request; with the redaction paths (app.ts) a pino child costs as much as a
 * small route, and most requests never log anything but their access line (below).
 */
class LazyChildLogger {
  #real: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private real(): Logger {
    this.#real ??= this.parent.child(this.bindings, this.options);
    return this.#real;
  }

  private write(level: Level, args: LogArgs) {
    if (this.#real) return this.#real[level](...args);
    if (this.parent.isLevelEnabled(level)) this.real()[level](...args);
  }

  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return (this.#real ?? this.parent).isLevelEnabled(level);
  }
  fatal(...args: LogArgs) {
    this.write('fatal', args);
  }
  error(...args: LogArgs) {
    this.write('error', args);
  }
  warn(...args: LogArgs) {
    this.write('warn', args);
  }
  info(...args: LogArgs) {
    this.write('info', args);
  }
  debug(...args: LogArgs) {
    this.write('debug', args);
  }
  trace(...args: LogArgs) {
    this.write('trace', args);
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: the per-request logger, made on first use. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // Only a pino logger can say which levels are on; any other (`logger: false`) gets its own child.
  if (typeof (logger as Partial<Logger>).isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new LazyChildLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

/** How many access lines are kept as their fields before they are made (about 60 KB of lines). */
const DEFERRED_LINES = 256;

/**
 * Answered requests' access lines, kept as their fields (one slot each in preallocated
 * arrays) and made in one pass when the log needs them.
 */
class AccessEntries {
  count = 0;
  readonly times = new Float64Array(DEFERRED_LINES);
  readonly elapsed = new Float64Array(DEFERRED_LINES);
  readonly statuses = new Uint16Array(DEFERRED_LINES);
  readonly ids = new Array<string | undefined>(DEFERRED_LINES);
  readonly methods = new Array<string | undefined>(DEFERRED_LINES);
  readonly urls = new Array<string | undefined>(DEFERRED_LINES);
}

/**
 * The per-request log lines (Fastify's `logController`): one access line per answered
 * request at info (`request completed`: request id, method, URL with query values dropped,
 * status, time), and the `incoming request` line at debug. A failed answer is logged by
 * Fastify as before.
 *
 * The access line is written straight to the app logger's destination, as the same JSON line
 * pino would write (level, time, pid, hostname, then the fields). Its shape is fixed and none
 * of its fields is secret, so it needs neither the redaction pass every other line goes
 * through nor pino's generic serializer: made through a pino logger, the line was a quarter
 * of a small answer's CPU time. Its numbers are written from integers (the opening once a
 * millisecond, the response time to the microsecond). On the server's batched destination
 * (lib/batched-log.ts) a request only records the line's fields; the lines are made in one
 * pass when the batch needs them (before any other line, at each flush, or every 256), which
 * cost a request less than making each line as it came (docs/decisions/buffered-logging.md).
 */
export class RequestLog extends LogController {
  private parent: Logger | undefined;
  private destination: pino.DestinationStream | undefined;
  /** Set when the destination takes deferred lines: the fields waiting to be made into lines. */
  private entries: AccessEntries | undefined;
  private readonly bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  /** The millisecond `opening` was made in, and the line's start up to the request id. */
  private openedAt = Number.NaN;
  private opening = '';

  constructor(private readonly loggedUrl: (url: string) => string) {
    super();
  }

  /** Writes the access lines to the app logger's destination, at its level. */
  attach(log: FastifyBaseLogger): void {
    this.parent = log as Logger;
    const destination = (log as unknown as Record<symbol, pino.DestinationStream | undefined>)[pino.symbols.streamSym];
    this.destination = destination;
    this.entries = undefined;
    if (destination instanceof BatchedLog) {
      this.entries = new AccessEntries();
      destination.defer(() => this.take());
    }
  }

  override incomingRequest(request: FastifyRequest): void {
    const log = request.log as Partial<Logger>;
    if (typeof log.isLevelEnabled !== 'function' || log.isLevelEnabled('debug')) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || !this.destination || !this.parent) return super.requestCompleted(error, request, reply);
    if (!this.parent.isLevelEnabled('info')) return;
    const entries = this.entries;
    if (!entries) {
      this.destination.write(this.line(Date.now(), request.id, request.method, request.url, reply.statusCode, reply.elapsedTime));
      return;
    }
    const at = entries.count;
    entries.times[at] = Date.now();
    entries.elapsed[at] = reply.elapsedTime;
    entries.statuses[at] = reply.statusCode;
    entries.ids[at] = request.id;
    entries.methods[at] = request.method;
    entries.urls[at] = request.url;
    entries.count = at + 1;
    if (entries.count >= DEFERRED_LINES) this.destination.write(this.take());
  }

  /** The deferred access lines, made in the order they were recorded; '' when there are none. */
  private take(): string {
    const entries = this.entries!;
    // Emptied first: whatever happens while the lines are made, none is made twice.
    const count = entries.count;
    entries.count = 0;
    let text = '';
    for (let at = 0; at < count; at += 1) {
      text += this.line(entries.times[at]!, entries.ids[at]!, entries.methods[at]!, entries.urls[at]!, entries.statuses[at]!, entries.elapsed[at]!);
      entries.ids[at] = entries.methods[at] = entries.urls[at] = undefined;
    }
    return text;
  }

  private line(time: number, id: string, method: string, url: string, status: number, elapsed: number): string {
    if (time !== this.openedAt) {
      this.openedAt = time;
      this.opening = `{"level":30,"time":${time}${this.bindings},"reqId":`;
    }
    return (
      `${this.opening}${JSON.stringify(id)},"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(this.loggedUrl(url))}},` +
      `"res":{"statusCode":${status}},"responseTime":${millisecondsText(elapsed)},"msg":"request completed"}\n`
    );
  }
}

/** Milliseconds as JSON number text to three decimals (`1.25` as `1.250`), made from integers. */
function millisecondsText(milliseconds: number): string {
  // Never the case for Fastify's elapsed time; JSON's own text (null for NaN) rather than a broken line.
  if (!(milliseconds >= 0 && milliseconds < 1e15)) return JSON.stringify(milliseconds);
  const micros = Math.round(milliseconds * 1000);
  const fraction = micros % 1000;
  return `${(micros - fraction) / 1000}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

import { hostname } from 'node:os';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LevelWithSilentOrString, type Logger } from 'pino';

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
 * of a small answer's CPU time (docs/decisions/buffered-logging.md). Its numbers are written
 * from integers: the line's opening (level, time, pid, hostname) once a millisecond, and the
 * response time in milliseconds to the microsecond: turning the two numbers into text as
 * JavaScript does was 4% of `GET /healthz`'s CPU time (docs/decisions/buffered-logging.md).
 */
export class RequestLog extends LogController {
  private parent: Logger | undefined;
  private destination: pino.DestinationStream | undefined;
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
    this.destination = (log as unknown as Record<symbol, pino.DestinationStream | undefined>)[pino.symbols.streamSym];
  }

  override incomingRequest(request: FastifyRequest): void {
    const log = request.log as Partial<Logger>;
    if (typeof log.isLevelEnabled !== 'function' || log.isLevelEnabled('debug')) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || !this.destination || !this.parent) return super.requestCompleted(error, request, reply);
    if (!this.parent.isLevelEnabled('info')) return;
    const now = Date.now();
    if (now !== this.openedAt) {
      this.openedAt = now;
      this.opening = `{"level":30,"time":${now}${this.bindings},"reqId":`;
    }
    this.destination.write(
      `${this.opening}${JSON.stringify(request.id)},` +
        `"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(this.loggedUrl(request.url))}},` +
        `"res":{"statusCode":${reply.statusCode}},"responseTime":${millisecondsText(reply.elapsedTime)},"msg":"request completed"}\n`,
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

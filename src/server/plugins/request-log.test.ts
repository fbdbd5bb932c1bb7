import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchedLog } from '../lib/batched-log';
import { RequestLog } from './request-log';

const capture = () => {
  const lines: string[] = [];
  return { lines, write: (chunk: string) => void lines.push(chunk) };
};

const request = (url: string) => ({ id: 'req-1', method: 'GET', url }) as FastifyRequest;
const reply = { statusCode: 404, elapsedTime: 1.25 } as FastifyReply;

describe('RequestLog access line', () => {
  // Characters JSON must escape (quote, backslash, a control character) and ones it keeps (é, U+2028).
  const awkward = '/no-such/a"b\\c\td\u00e9\u2028?q=1';

  it('writes the line pino itself would write for the same fields, parseable, one per answer', () => {
    const out = capture();
    const log = new RequestLog((url) => url);
    log.attach(pino({ level: 'info' }, out));
    log.requestCompleted(null, request(awkward), reply);

    const fromPino = capture();
    pino({ level: 'info' }, fromPino).info(
      { reqId: 'req-1', req: { method: 'GET', url: awkward }, res: { statusCode: 404 }, responseTime: 1.25 },
      'request completed',
    );
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]!.endsWith('}\n')).toBe(true);
    const { time, ...line } = JSON.parse(out.lines[0]!) as Record<string, unknown>;
    const { time: pinoTime, ...expected } = JSON.parse(fromPino.lines[0]!) as Record<string, unknown>;
    expect(line).toEqual(expected);
    expect(Object.keys(line)).toEqual(Object.keys(expected));
    expect(typeof time).toBe('number');
    expect(Math.abs((time as number) - (pinoTime as number))).toBeLessThan(60_000);
  });

  it('logs the URL as the app gives it (query values dropped) and writes nothing above info', () => {
    const out = capture();
    const log = new RequestLog((url) => url.replace(/=[^&]*/g, '=~'));
    log.attach(pino({ level: 'info' }, out));
    log.requestCompleted(null, request('/api/x?token=secret'), reply);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ req: { url: '/api/x?token=~' } });
    expect(out.lines.join('')).not.toContain('secret');

    const quiet = capture();
    const warnOnly = new RequestLog((url) => url);
    warnOnly.attach(pino({ level: 'warn' }, quiet));
    warnOnly.requestCompleted(null, request('/healthz'), reply);
    expect(quiet.lines).toEqual([]);
  });

  describe('numbers', () => {
    afterEach(() => vi.useRealTimers());
    const lineFor = (log: RequestLog, out: { lines: string[] }, elapsedTime: number) => {
      log.requestCompleted(null, request('/healthz'), { statusCode: 200, elapsedTime } as FastifyReply);
      return out.lines.at(-1)!;
    };

    it('writes the response time in milliseconds to the microsecond', () => {
      const out = capture();
      const log = new RequestLog((url) => url);
      log.attach(pino({ level: 'info' }, out));
      const times = [0, 0.0004, 0.0005, 0.01, 0.0123, 0.1, 0.5, 1.2345678, 12.05, 999.9996, 300_000.25, Number.NaN].map(
        (elapsed) => lineFor(log, out, elapsed).match(/"responseTime":([^,]+),/)![1],
      );
      expect(times).toEqual(['0.000', '0.000', '0.001', '0.010', '0.012', '0.100', '0.500', '1.235', '12.050', '1000.000', '300000.250', 'null']);
      for (const line of out.lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    });

    it('writes each line with the millisecond it was written in', () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const out = capture();
      const log = new RequestLog((url) => url);
      log.attach(pino({ level: 'info' }, out));
      const timeOf = (line: string) => (JSON.parse(line) as { time: number }).time;
      vi.setSystemTime(1_800_000_000_000);
      const first = lineFor(log, out, 1);
      const sameMillisecond = lineFor(log, out, 2);
      vi.setSystemTime(1_800_000_000_001);
      const next = lineFor(log, out, 3);
      vi.setSystemTime(1_800_000_000_000);
      const clockSetBack = lineFor(log, out, 4);
      expect([first, sameMillisecond, next, clockSetBack].map(timeOf)).toEqual([1_800_000_000_000, 1_800_000_000_000, 1_800_000_000_001, 1_800_000_000_000]);
    });
  });

  describe("on the server's batched log", () => {
    afterEach(() => vi.useRealTimers());
    const batched = (minLength: number) => {
      const chunks: string[] = [];
      const log = new BatchedLog({ write: (chunk: string) => void chunks.push(chunk) }, minLength);
      return { chunks, log, lines: () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
    };

    it('records each answer and makes its line when the log needs it, in the order things happened', () => {
      const out = batched(1_000_000);
      const logger = pino({ level: 'info' }, out.log);
      const log = new RequestLog((url) => url);
      log.attach(logger);
      log.requestCompleted(null, request('/first'), reply);
      log.requestCompleted(null, request(awkward), reply);
      logger.warn('then this');
      log.requestCompleted(null, request('/last'), reply);
      expect(out.chunks).toEqual([]);
      out.log.flush();
      expect(out.lines().map((line) => (line.req as { url?: string } | undefined)?.url ?? line.msg)).toEqual(['/first', awkward, 'then this', '/last']);

      // Each line as a plain stream gets it at once.
      const plain = capture();
      const direct = new RequestLog((url) => url);
      direct.attach(pino({ level: 'info' }, plain));
      direct.requestCompleted(null, request(awkward), reply);
      const strip = ({ time: _time, ...rest }: Record<string, unknown>) => rest;
      expect(strip(out.lines()[1]!)).toEqual(strip(JSON.parse(plain.lines[0]!) as Record<string, unknown>));
    });

    it('hands 256 lines on together without waiting for a flush', () => {
      const out = batched(1);
      const log = new RequestLog((url) => url);
      log.attach(pino({ level: 'info' }, out.log));
      for (let i = 0; i < 255; i += 1) log.requestCompleted(null, request(`/n/${i}`), reply);
      expect(out.chunks).toEqual([]);
      log.requestCompleted(null, request('/n/255'), reply);
      expect(out.chunks).toHaveLength(1);
      // And the slots again for the next ones, none of the first written twice.
      for (let i = 256; i < 259; i += 1) log.requestCompleted(null, request(`/n/${i}`), reply);
      out.log.flush();
      expect(out.lines().map((line) => (line.req as { url: string }).url)).toEqual(Array.from({ length: 259 }, (_, i) => `/n/${i}`));
    });

    it('keeps the time each answer was recorded at and its full response time, and records nothing above info', () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const out = batched(1_000_000);
      const log = new RequestLog((url) => url);
      log.attach(pino({ level: 'info' }, out.log));
      vi.setSystemTime(1_800_000_000_000);
      log.requestCompleted(null, request('/a'), { statusCode: 503, elapsedTime: 1_048_576.0015 } as FastifyReply);
      vi.setSystemTime(1_800_000_000_007);
      log.requestCompleted(null, request('/b'), reply);
      vi.setSystemTime(1_800_000_009_000);
      out.log.flush();
      expect(out.chunks[0]).toContain('"res":{"statusCode":503},"responseTime":1048576.002,');
      expect(out.lines().map((line) => [line.time, line.res])).toEqual([
        [1_800_000_000_000, { statusCode: 503 }],
        [1_800_000_000_007, { statusCode: 404 }],
      ]);

      const quiet = batched(1);
      const warnOnly = new RequestLog((url) => url);
      warnOnly.attach(pino({ level: 'warn' }, quiet.log));
      warnOnly.requestCompleted(null, request('/healthz'), reply);
      quiet.log.flush();
      expect(quiet.chunks).toEqual([]);
    });

    it('refuses a second source of deferred lines on one log rather than leave the first unasked', () => {
      const out = batched(1_000_000);
      new RequestLog((url) => url).attach(pino({ level: 'info' }, out.log));
      expect(() => new RequestLog((url) => url).attach(pino({ level: 'info' }, out.log))).toThrow(/already takes deferred lines/);
    });
  });
});

import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
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
});

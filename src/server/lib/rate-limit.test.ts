import { isIPv6 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { MemoryCounterStore } from './counter-store';
import { IP_WINDOW_MS, countHit, enforceLimit, perIpKey } from './rate-limit';

function store() {
  let now = Date.parse('2026-03-02T12:00:00Z');
  const clock = Object.assign(() => new Date(now), { advance: (ms: number) => (now += ms) });
  return { clock, counters: new MemoryCounterStore(clock) };
}

/** An address in the /64 numbered `n` of the /56 `2001:db8:7:${block}00::/56`, with host bits that differ too. */
const inBlock = (block: number, n: number) => `2001:db8:7:${((block << 8) | n).toString(16)}:${((n * 7919) & 0xffff).toString(16)}::${n + 1}`;

describe('perIpKey', () => {
  it('keys IPv4 by the address, IPv4-mapped IPv6 as IPv4, and IPv6 by its /56', () => {
    expect(perIpKey('signin', '203.0.113.9')).toBe('ip:signin:203.0.113.9');
    expect(perIpKey('signin', '::ffff:203.0.113.9')).toBe('ip:signin:203.0.113.9');
    expect(perIpKey('signin', '2001:db8:7:42ab:1::1')).toBe('ip:signin:2001:db8:7:4200::/56');
  });
});

describe('countHit per IP', () => {
  const max = 5;
  const hit = (counters: MemoryCounterStore, ip: string) => countHit(counters, perIpKey('signin', ip), max, IP_WINDOW_MS);

  it('makes 24 addresses in different /64s of one /56 share one limit', async () => {
    const { counters } = store();
    const addresses = Array.from({ length: 24 }, (_, n) => inBlock(0x42, n));
    // 24 different /64s, every one a valid address.
    expect(new Set(addresses.map((a) => a.split(':').slice(0, 4).join(':'))).size).toBe(24);
    expect(addresses.every((a) => isIPv6(a))).toBe(true);
    const answers = [];
    for (const address of addresses) answers.push(await hit(counters, address));
    // The first `max` pass, every later one (each from a new /64) waits out the same window.
    expect(answers.slice(0, max)).toEqual([0, 0, 0, 0, 0]);
    expect(answers.slice(max).every((wait) => wait === 60)).toBe(true);
  });

  it('keeps addresses in different /56s apart', async () => {
    const { counters } = store();
    for (let block = 0; block < 24; block += 1) {
      for (let i = 0; i < max; i += 1) expect(await hit(counters, inBlock(block, i))).toBe(0);
    }
    // Each /56 has used up exactly its own limit.
    expect(await hit(counters, inBlock(3, 200))).toBe(60);
    expect(await hit(counters, inBlock(24, 0))).toBe(0);
  });

  it('treats an IPv4 client the same over IPv4 and IPv4-mapped IPv6, and its neighbour apart', async () => {
    const { counters } = store();
    for (let i = 0; i < max; i += 1) expect(await hit(counters, i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7')).toBe(0);
    expect(await hit(counters, '198.51.100.7')).toBeGreaterThan(0);
    expect(await hit(counters, '198.51.100.8')).toBe(0);
  });

  it('opens again when the window ends, and enforceLimit throws the 429 with Retry-After', async () => {
    const { clock, counters } = store();
    const key = perIpKey('register', '2001:db8:9:100::1');
    for (let i = 0; i < max; i += 1) await enforceLimit(counters, key, max, IP_WINDOW_MS, 'wait');
    clock.advance(15_000);
    const refused = await enforceLimit(counters, key, max, IP_WINDOW_MS, 'wait').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'rate_limited', message: 'wait', headers: { 'retry-after': '45' } });
    clock.advance(45_000);
    await expect(enforceLimit(counters, perIpKey('register', '2001:db8:9:1ff::2'), max, IP_WINDOW_MS, 'wait')).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { maskIp, rateLimitKey } from './ip';

describe('maskIp', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0/24'],
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['2001:db8:abcd:12::1', '2001:db8:abcd::/48'],
    ['2001:0db8:0000::1', '2001:db8:0::/48'],
    ['::1', '0:0:0::/48'],
    ['not-an-ip', 'unknown'],
  ])('masks %s as %s', (ip, masked) => {
    expect(maskIp(ip)).toBe(masked);
  });
});

describe('rateLimitKey', () => {
  it.each([
    ['203.0.113.77', '203.0.113.77'],
    ['::ffff:203.0.113.77', '203.0.113.77'],
    ['::ffff:7f00:1', '127.0.0.1'],
    // IPv6 by its /56: the 4th group keeps only its high byte.
    ['2001:db8:abcd:12:1:2:3:4', '2001:db8:abcd::/56'],
    ['2001:db8:abcd:12ff::ffff', '2001:db8:abcd:1200::/56'],
    ['2001:0DB8:ABCD:1234:0:0:0:1', '2001:db8:abcd:1200::/56'],
    ['fe80::1%eth0', 'fe80::/56'],
    // Only the standard notations: ipaddr.js's lenient IPv4 forms are not addresses here.
    ['127.1', 'unknown'],
    ['not-an-ip', 'unknown'],
  ])('keys %s as %s', (ip, key) => {
    expect(rateLimitKey(ip)).toBe(key);
  });

  it('gives every /64 of one /56 the same key, and different /56s different keys', () => {
    const inOne56 = Array.from({ length: 24 }, (_, i) => `2001:db8:7:${(0x4200 + i).toString(16)}:${i + 1}::${i + 7}`);
    expect(new Set(inOne56.map(rateLimitKey))).toEqual(new Set(['2001:db8:7:4200::/56']));
    const across = Array.from({ length: 24 }, (_, i) => `2001:db8:7:${(0x4200 + i * 0x100).toString(16)}::1`);
    expect(new Set(across.map(rateLimitKey)).size).toBe(24);
  });
});

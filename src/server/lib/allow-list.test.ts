import { describe, expect, it } from 'vitest';
import { isAllowed, parseAllowList } from './allow-list';

describe('allow lists (METRICS_ALLOW)', () => {
  it('matches single addresses, CIDR ranges and IPv4-mapped IPv6', () => {
    const list = parseAllowList('127.0.0.1, ::1 10.0.0.0/8,fd00::/8');
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '::1', '10.200.3.4', '::ffff:10.0.0.1', 'fd12::5']) expect(isAllowed(list, ip), ip).toBe(true);
    for (const ip of ['127.0.0.2', '11.0.0.1', '::2', 'fe80::1', '', undefined, 'localhost']) expect(isAllowed(list, ip), String(ip)).toBe(false);
  });
  it('refuses entries that are not addresses or ranges', () => {
    for (const spec of ['localhost', '10.0.0.0/33', '::/129', '1.2.3', '10.0.0.0/x']) expect(() => parseAllowList(spec), spec).toThrow(/METRICS_ALLOW/);
    expect(isAllowed(parseAllowList(''), '127.0.0.1')).toBe(false);
  });
});

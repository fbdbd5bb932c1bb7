import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Masks an address for audit storage: IPv4 to its /24, IPv6 to its /48. */
export function maskIp(ip: string): string {
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(v4)) {
    const parts = v4.split('.');
    return `${parts[0]}.${parts[1]}.${parts[2]}.0/24`;
  }
  if (isIPv6(ip)) {
    const groups = expandIpv6(ip);
    return `${groups.slice(0, 3).join(':')}::/48`;
  }
  return 'unknown';
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = ip.includes('::') ? Array<string>(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((g) => (g === '' ? '0' : g.toLowerCase().replace(/^0+(?=.)/, '')));
}

/** IPv6 clients are limited by this prefix: a /56, the usual smallest allocation to one subscriber. */
export const IPV6_LIMIT_PREFIX = 56;

/**
 * The key a client is rate-limited by: an IPv4 address as such (an IPv4-mapped IPv6 address
 * too), an IPv6 address by its /56, so rotating addresses (and /64s) inside one subscriber's
 * allocation buys nothing. Parsing and masking by ipaddr.js (Fastify's own dependency).
 */
export function rateLimitKey(ip: string): string {
  // Only the standard notations (node:net), not ipaddr.js's lenient ones ("127.1", hex parts).
  if (!isIPv4(ip) && !isIPv6(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  // The zone (fe80::1%eth0) is not part of the key: parts only.
  const bare = new ipaddr.IPv6((address as ipaddr.IPv6).parts);
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${bare.toString()}/${IPV6_LIMIT_PREFIX}`).toRFC5952String()}/${IPV6_LIMIT_PREFIX}`;
}

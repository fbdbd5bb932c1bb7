import { isIPv4, isIPv6 } from 'node:net';

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

/**
 * The key a client is rate-limited by: an IPv4 address as such, an IPv6 address by its /64
 * (one subscriber's allocation), so rotating addresses inside a prefix buys nothing.
 */
export function rateLimitKey(ip: string): string {
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(v4)) return v4;
  if (isIPv6(ip)) return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
  return 'unknown';
}

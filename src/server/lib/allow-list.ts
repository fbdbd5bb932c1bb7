import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Parses METRICS_ALLOW: addresses or CIDR ranges, IPv4 or IPv6, separated by commas or spaces.
 * Throws on an entry that is neither.
 */
export function parseAllowList(spec: string): BlockList {
  const list = new BlockList();
  for (const entry of spec.split(/[\s,]+/).filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (!type) throw new Error(`METRICS_ALLOW: "${entry}" is not an IP address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (type === 'ipv4' ? 32 : 128)) throw new Error(`METRICS_ALLOW: bad prefix in "${entry}"`);
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}

/** True when `address` (as a socket reports it, IPv4-mapped IPv6 included) is on the list. */
export function isAllowed(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  if (isIPv4(v4)) return list.check(v4, 'ipv4');
  return isIPv6(address) && list.check(address, 'ipv6');
}

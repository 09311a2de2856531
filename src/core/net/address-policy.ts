/**
 * Which addresses count as public, for every outbound request made on a
 * user's behalf (URL documents, plugin webhooks): the SSRF guard's rule.
 */
import { BlockList, isIP } from 'node:net';

/** Why an address is not public; null for a public one. */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'multicast'
  | 'reserved';

/** Ranges that never belong to a public web server (RFC 6890 and friends). */
const RANGES: ReadonlyArray<[AddressClass, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['shared', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
];

const LISTS = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  let list = LISTS.get(kind);
  if (!list) {
    list = new BlockList();
    LISTS.set(kind, list);
  }
  list.addSubnet(network, prefix, family);
}

/** An IPv4 address carried inside an IPv6 one (NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), else null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const nat64 = /^64:ff9b::(?:ffff:)?([0-9.]+)$/.exec(lower);
  if (nat64 && isIP(nat64[1]!) === 4) return nat64[1]!;
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const high = Number.parseInt(sixToFour[1]!, 16);
    const low = Number.parseInt(sixToFour[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return null;
}

/**
 * What kind of non-public address `address` is, or null when it is public.
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are judged as the IPv4
 * address they carry, and so are NAT64 and 6to4 ones. Anything that is not
 * an IP address at all counts as reserved.
 */
export function classifyAddress(address: string): AddressClass | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  const embedded = family === 6 ? embeddedIpv4(bare) : null;
  if (embedded) return classifyAddress(embedded);
  for (const [kind, list] of LISTS) {
    if (list.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  }
  return null;
}

const DESCRIPTIONS: Record<AddressClass, string> = {
  unspecified: 'an unspecified',
  loopback: 'a loopback',
  private: 'a private',
  'link-local': 'a link-local',
  shared: 'a shared (carrier-grade NAT)',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

/**
 * Why connecting to `address` is refused, for the caller's failure reason;
 * null when it is public. `allowSetting` names the variable that would allow
 * it (URL documents and outbound webhooks each have their own).
 */
export function refusalReason(hostname: string, address: string, allowSetting: string): string | null {
  const kind = classifyAddress(address);
  if (!kind) return null;
  const shown = hostname === address ? address : `${hostname} (${address})`;
  return `${shown} is ${DESCRIPTIONS[kind]} address; this is refused as a private address unless ${allowSetting}=true`;
}

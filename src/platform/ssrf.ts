import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

/**
 * Where webhook targets may not point (unless private targets are allowed outside production):
 * "this" network, private ranges, CGNAT, loopback, link-local (cloud metadata 169.254.169.254),
 * multicast, reserved and broadcast; in IPv6 the unspecified and loopback addresses,
 * unique-local, link-local, multicast and the documentation prefix, and every form that carries
 * an IPv4 address inside it: IPv4-compatible, IPv4-mapped, IPv4-translated, NAT64 (well-known
 * and local-use prefixes), 6to4 and Teredo. These are refused whatever IPv4 address they embed:
 * each reaches an IPv4 host through a translator or relay, judging the embedded address would
 * mean decoding each form (Teredo hides its client address inverted and carries a second one,
 * its server's), and no webhook receiver needs them (6to4 and Teredo are obsolete transition
 * mechanisms; a receiver with IPv6 has a native address).
 */
// Two lists: one BlockList checks an IPv4 address against its IPv6 rules too (as ::ffff:a.b.c.d),
// so with the IPv4-mapped rule in the same list every IPv4 address would match.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the old IPv4-compatible form
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64, well-known prefix
  ['64:ff9b:1::', 48], // NAT64, local-use prefix
  ['100::', 64],
  ['2001::', 32], // Teredo: server IPv4 in bits 32–63, client IPv4 inverted in the last 32
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4: the IPv4 address in bits 16–47
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked6.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (an IP literal) is one a webhook may not reach. Not an IP: true. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked4.check(address, 'ipv4');
  if (family === 6) {
    return blocked6.check(address.toLowerCase(), 'ipv6');
  }
  return true;
}

/** The host of a URL without IPv6 brackets (`[::1]` → `::1`). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Names that always mean this machine, refused without a DNS query. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export class ForbiddenTargetError extends Error {
  readonly code = 'forbidden_target';
  constructor(host: string, address?: string) {
    super(address ? `${host} resolves to ${address}, a private, loopback or link-local address` : `${host} is a private, loopback or link-local address`);
    this.name = 'ForbiddenTargetError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s) agents that refuses private addresses. It runs at connect time, on the
 * address the socket will connect to, so a name that changes what it resolves to after the
 * endpoint was saved (DNS rebinding) is caught too. Every resolved address must be public:
 * refusing when any is private keeps a name from smuggling one in among public ones.
 */
export function guardedLookup(resolve: LookupFunction = dnsLookup as unknown as LookupFunction): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    if (isLocalName(hostname)) return callback(new ForbiddenTargetError(hostname) as NodeJS.ErrnoException, '', 4);
    resolve(
      hostname,
      { ...options, all: true } as never,
      ((err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 4);
        const list = Array.isArray(addresses) ? addresses : [];
        const bad = list.find((a) => isForbiddenAddress(a.address));
        if (bad) return callback(new ForbiddenTargetError(hostname, bad.address) as NodeJS.ErrnoException, '', 4);
        if (list.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) return callback(null, list);
        return callback(null, list[0].address, list[0].family);
      }) as never,
    );
  }) as LookupFunction;
}

import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IPv6 prefixes that carry an IPv4 address, so a client could reach an IPv4 host (127.0.0.1, the
 * metadata service) through an IPv6 literal: IPv4-compatible (::a.b.c.d, deprecated), SIIT
 * translated, NAT64 (well-known and local-use), 6to4 and Teredo. All are refused whatever the
 * IPv4 inside; only IPv4-mapped (::ffff:a.b.c.d) is judged by the address it maps to. Checked with
 * node's BlockList, which reads an address as the socket will (ipaddr.js reads `::a.b.c.d` as
 * mapped), and listed here rather than left to a library's range names.
 */
const IPV4_IN_IPV6 = new net.BlockList();
for (const [prefix, bits] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
] as const) {
  IPV4_IN_IPV6.addSubnet(prefix, bits, 'ipv6');
}

/** Only globally routable unicast addresses may receive webhooks (no loopback, private, link-local, CGNAT, multicast, metadata). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  if (net.isIPv6(address) && IPV4_IN_IPV6.check(address, 'ipv6')) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * Which addresses may be connected to: `false` (the default everywhere) allows public ones only,
 * `true` lifts the guard (ALLOW_PRIVATE_NETWORKS), and a function decides itself (tests).
 */
export type AddressPolicy = boolean | ((address: string) => boolean);

function allows(policy: AddressPolicy, address: string): boolean {
  return typeof policy === 'function' ? policy(address) : policy || isPublicAddress(address);
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

/**
 * A dns.lookup replacement for the HTTP agent: the address actually connected to is the one
 * checked here, so a DNS answer that changes between checks (rebinding) cannot slip through.
 */
export function guardedLookup(allowPrivate: AddressPolicy): typeof dns.lookup {
  return ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const blocked = list.find((a) => !allows(allowPrivate, a.address));
      if (blocked)
        return callback(new BlockedAddressError(`refused to deliver to non-public address ${blocked.address}`), '', 0);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  }) as typeof dns.lookup;
}

/** IP-literal hosts skip DNS, so they are checked before connecting. */
export function literalHostBlocked(hostname: string, allowPrivate: AddressPolicy): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(host)) return undefined;
  return allows(allowPrivate, host) ? undefined : `refused to deliver to non-public address ${host}`;
}

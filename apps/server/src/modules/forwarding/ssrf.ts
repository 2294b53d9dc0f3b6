import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { lookup as dnsLookupAsync } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Server-side request forgery guard for webhooks (issue 8). Only public unicast addresses are
 * reachable; loopback only when FORWARDING_ALLOW_LOOPBACK is set (tests), private ranges never.
 * An IPv6 address that carries an IPv4 address is judged as that IPv4 address (decision 013).
 */
export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`The address ${address} is not a public internet address.`);
    this.name = "BlockedAddressError";
  }
}

/** The IPv4 address of the last 32 bits of an IPv6 address. */
function lastIPv4Of(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

/** NAT64's well-known prefix 64:ff9b::/96 (RFC 6052); its local-use 64:ff9b:1::/48 stays refused. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
/** IPv4-compatible addresses ::a.b.c.d (RFC 4291, deprecated), which ipaddr.js calls unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * The address judged for `address`: the IPv4 address carried by an IPv4-mapped (`::ffff:a.b.c.d`,
 * any spelling), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, `::7f00:1`) or
 * NAT64 (`64:ff9b::a.b.c.d`) address, otherwise the address itself. 6to4 (2002::/16) and Teredo
 * (2001::/32) keep their own ranges, which are never allowed: they go through relays to whatever
 * IPv4 address they carry.
 */
function judgedAddressOf(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed;
  const ipv6 = parsed as ipaddr.IPv6;
  const range = ipv6.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return lastIPv4Of(ipv6);
  if (ipv6.match(NAT64_WELL_KNOWN)) return lastIPv4Of(ipv6);
  // `::` and `::1` are in ::/96 too, and are IPv6's own unspecified and loopback addresses.
  if (ipv6.match(IPV4_COMPATIBLE) && range !== "unspecified" && range !== "loopback") return lastIPv4Of(ipv6);
  return ipv6;
}

export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = judgedAddressOf(address).range();
  if (range === "unicast") return true;
  return allowLoopback && range === "loopback";
}

function assertAllowed(address: string, allowLoopback: boolean) {
  if (!isAllowedAddress(address, allowLoopback)) throw new BlockedAddressError(address);
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Resolves the URL's host and refuses it when any of its addresses is not allowed (on save and before each send). */
export async function assertPublicUrl(url: URL, allowLoopback: boolean): Promise<void> {
  const host = hostOf(url);
  if (isIP(host)) return assertAllowed(host, allowLoopback);
  const addresses = await dnsLookupAsync(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new BlockedAddressError(host);
  for (const { address } of addresses) assertAllowed(address, allowLoopback);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the HTTP agent: the socket connects only to an address checked here, so a host
 * that resolves to a public address at save time and a private one at send time (DNS rebinding)
 * is refused.
 */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const blocked = addresses.find(({ address }) => !isAllowedAddress(address, allowLoopback));
      if (blocked || addresses.length === 0)
        return callback(new BlockedAddressError(blocked?.address ?? hostname), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

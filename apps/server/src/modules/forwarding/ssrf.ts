import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { lookup as dnsLookupAsync } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Server-side request forgery guard for webhooks (issue 8). Only public unicast addresses are
 * reachable; loopback only when FORWARDING_ALLOW_LOOPBACK is set (tests), private ranges never.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`The address ${address} is not a public internet address.`);
    this.name = "BlockedAddressError";
  }
}

export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
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

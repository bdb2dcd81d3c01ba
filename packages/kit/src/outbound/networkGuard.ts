import { promises as dns } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { OutboundError } from './outboundErrors.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses; injectable so tests can map names to local servers. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

// Cloud metadata endpoints stay refused even when private networks are allowed for local test sites;
// so does all of 169.254.0.0/16 and fe80::/10 (link-local: AWS's 169.254.169.253 resolver, ECS's 169.254.170.2...).
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 address an IPv6 address stands for: IPv4-compatible (::a.b.c.d, not :: or ::1),
 * NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, client address inverted).
 * IPv4-mapped (::ffff:a.b.c.d) is already turned into IPv4 by ipaddr.process.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  if (p.slice(0, 6).every((x) => x === 0) && !(p[6] === 0 && p[7] <= 1)) return ipv4Of(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return ipv4Of(p[6], p[7]);
  if (p[0] === 0x2002) return ipv4Of(p[1], p[2]);
  if (p[0] === 0x2001 && p[1] === 0) return ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff);
  return undefined;
}

function problemOf(parsed: Address, allowPrivateNetworks: boolean): string | undefined {
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'is a cloud metadata address';
  const range = parsed.range();
  if (range === 'linkLocal') return 'is in the linkLocal range';
  if (parsed.kind() === 'ipv6') {
    const embedded = embeddedIpv4(parsed as ipaddr.IPv6);
    if (embedded) {
      const inner = problemOf(embedded, allowPrivateNetworks);
      if (inner) return `embeds ${embedded.toString()}, which ${inner}`;
      // Deprecated and never routed publicly; ipaddr calls it unicast.
      if (range === 'unicast') return 'is an IPv4-compatible IPv6 address';
    }
    // The NAT64 local-use prefix 64:ff9b:1::/48 places its IPv4 address by prefix length: refuse it whole.
    if ((parsed as ipaddr.IPv6).parts[0] === 0x64 && (parsed as ipaddr.IPv6).parts[1] === 0xff9b) {
      if (!embedded) return 'is in the NAT64 local-use range';
    }
  }
  if (range === 'unicast' || allowPrivateNetworks) return undefined;
  return `is in the ${range} range`;
}

/**
 * Why an address must not be fetched, or undefined when it may. Only global unicast passes:
 * loopback, private, link-local, unique-local, carrier-grade NAT, reserved, multicast and the
 * IPv6 forms that embed an IPv4 address (mapped, IPv4-compatible, 6to4, NAT64, Teredo) are refused.
 * With private networks allowed (local test sites), link-local and cloud metadata addresses stay
 * refused, in every form that embeds them.
 */
export function addressProblem(address: string, allowPrivateNetworks: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  return problemOf(ipaddr.process(address), allowPrivateNetworks);
}

/** The URL as the crawler may fetch it: http(s) only, no embedded credentials. */
export function parseFetchableUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad_url', `Not a valid URL: ${raw.slice(0, 200)}`, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_url', `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}`, raw);
  }
  if (url.username || url.password) throw new OutboundError('bad_url', 'URLs with embedded credentials are not fetched', raw);
  return url;
}

/** The host name without IPv6 brackets, as resolvers and address checks want it. */
const bareHostname = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves a host and returns the first address it may connect to; refuses the host when any of
 * its addresses is forbidden, so a name cannot smuggle a private address in among public ones.
 */
export async function resolveAllowedAddress(hostname: string, lookup: HostLookup, allowPrivateNetworks: boolean, url: string): Promise<ResolvedAddress> {
  const host = bareHostname(hostname);
  let addresses: ResolvedAddress[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await lookup(host);
    } catch (error) {
      throw new OutboundError('network', `Could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, url);
    }
  }
  if (!addresses.length) throw new OutboundError('network', `Could not resolve ${host}: no addresses`, url);
  for (const { address } of addresses) {
    const problem = addressProblem(address, allowPrivateNetworks);
    if (problem) throw new OutboundError('blocked_address', `Refused to fetch ${host}: its address ${address} ${problem}`, url);
  }
  return addresses[0];
}

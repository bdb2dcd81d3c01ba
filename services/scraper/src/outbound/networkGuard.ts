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

// Cloud metadata endpoints stay refused even when private networks are allowed for local test sites.
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

/**
 * Why an address must not be fetched, or undefined when it may. Only global unicast passes:
 * loopback, private, link-local, unique-local, carrier-grade NAT, reserved, multicast and the
 * IPv6 forms that embed an IPv4 address (mapped, 6to4, NAT64, Teredo) are refused.
 */
export function addressProblem(address: string, allowPrivateNetworks: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.process(address);
  const normalised = parsed.toNormalizedString();
  if (METADATA_ADDRESSES.has(normalised) || METADATA_ADDRESSES.has(parsed.toString())) return 'is a cloud metadata address';
  const range = parsed.range();
  if (range === 'unicast' || allowPrivateNetworks) return undefined;
  return `is in the ${range} range`;
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

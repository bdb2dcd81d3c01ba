import { buildConnector } from 'undici';
import { resolveAllowedAddress, type HostLookup, type ResolvedAddress } from './networkGuard.ts';

/**
 * Where a connection to an allowed address really goes. Production connects to the address;
 * tests and benchmarks route every connection to the local fixture web server while the address
 * the guard saw stays the one that decides.
 */
export type ConnectRoute = (address: ResolvedAddress, port: number) => { host: string; port: number };

export interface GuardedConnectorOptions {
  lookup: HostLookup;
  allowPrivateNetworks: boolean;
  connectTimeoutMs: number;
  route?: ConnectRoute;
}

/**
 * An undici connector that resolves the host itself and checks the address at connection time:
 * every connection, including each one a redirect opens, passes the SSRF guard, and the address
 * checked is the address connected to (no DNS rebinding between check and connect).
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: options.connectTimeoutMs, keepAlive: true });
  return (connectOptions, callback) => {
    const defaultPort = connectOptions.protocol === 'https:' ? 443 : 80;
    const port = Number(connectOptions.port) || defaultPort;
    const url = `${connectOptions.protocol}//${connectOptions.host ?? connectOptions.hostname}`;
    resolveAllowedAddress(connectOptions.hostname, options.lookup, options.allowPrivateNetworks, url).then(
      (address) => {
        const target = options.route ? options.route(address, port) : { host: address.address, port };
        connect({ ...connectOptions, hostname: target.host, port: String(target.port) }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}

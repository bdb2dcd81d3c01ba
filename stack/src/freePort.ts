import fs from 'node:fs';
import net from 'node:net';

const LOWEST = 10_000;
/** Ports this process has handed out: two services of one stack never get the same one. */
const handedOut = new Set<number>();

/** The first port the kernel gives outgoing connections as their local port (Linux; else its default). */
function ephemeralRangeStart(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function listenOnce(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.on('error', () => resolve(undefined));
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * Keeps freePort from handing out a port that is already promised to a server not yet listening, such
 * as the public port a launcher was given.
 */
export function reservePort(port: number): void {
  handedOut.add(port);
}

/**
 * A port nothing listens on, for a server that starts a little later (a stack picks its services'
 * ports before starting them: each needs the others' URLs). Picked below the kernel's ephemeral range:
 * a port from that range (what `listen(0)` gives) can meanwhile become the local port of any outgoing
 * connection on the machine, and the server's own listen then fails with EADDRINUSE (seen under the
 * parallel test suite). Below it, only another listener can take the port.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const top = ephemeralRangeStart();
  for (let attempt = 0; top > LOWEST && attempt < 50; attempt += 1) {
    const candidate = LOWEST + Math.floor(Math.random() * (top - LOWEST));
    if (handedOut.has(candidate)) continue;
    if ((await listenOnce(candidate, host)) === candidate) {
      handedOut.add(candidate);
      return candidate;
    }
  }
  const port = await listenOnce(0, host);
  if (port === undefined) throw new Error(`no free port on ${host}`);
  return port;
}

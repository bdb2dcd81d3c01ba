import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const LOWEST = 10_000;
/** Ports this process has handed out: two services of one stack never get the same one. */
const handedOut = new Set<number>();

/**
 * Where every process on the machine records the ports it has handed out and not yet listened on.
 * Fixed, not TMPDIR: processes with different temporary folders (test runs, their workers) share it.
 */
const CLAIMS_DIR = path.join(process.platform === 'win32' ? os.tmpdir() : '/tmp', 'leadforge-port-claims');
/** A claim older than this is void even if its process lives: by then its server listens, or never will. */
const CLAIM_LIFETIME_MS = 10 * 60_000;

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

function processLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function claimIsVoid(file: string): boolean {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8'));
    return Date.now() - fs.statSync(file).mtimeMs > CLAIM_LIFETIME_MS || !(pid > 0 && processLives(pid));
  } catch {
    return true;
  }
}

/**
 * Claims `port` for this process, machine-wide, until it dies or CLAIM_LIFETIME_MS passes. The listen
 * check alone cannot see a port another process has picked but not yet listened on (a stack picks all
 * its services' ports before starting any): two test workers once picked the same one, and the second
 * server to listen failed with EADDRINUSE. Without a writable claims folder, claims stay in-process.
 */
export function claimPort(port: number): boolean {
  if (handedOut.has(port)) return false;
  const file = path.join(CLAIMS_DIR, String(port));
  try {
    // Shared by every user's processes, as /tmp itself is.
    if (fs.mkdirSync(CLAIMS_DIR, { recursive: true }) !== undefined) fs.chmodSync(CLAIMS_DIR, 0o1777);
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o666 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !claimIsVoid(file)) return false;
      fs.rmSync(file, { force: true });
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o666 });
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Another process took the void claim first.
    if (code === 'EEXIST') return false;
  }
  handedOut.add(port);
  return true;
}

/**
 * Keeps freePort from handing out a port that is already promised to a server not yet listening, such
 * as the public port a launcher was given.
 */
export function reservePort(port: number): void {
  claimPort(port);
  handedOut.add(port);
}

/**
 * A port nothing listens on and no process has claimed, for a server that starts a little later (a
 * stack picks its services' ports before starting them: each needs the others' URLs). Picked below the
 * kernel's ephemeral range: a port from that range (what `listen(0)` gives) can meanwhile become the
 * local port of any outgoing connection on the machine, and the server's own listen then fails with
 * EADDRINUSE (seen under the parallel test suite). Below it, only another listener can take the port.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const top = ephemeralRangeStart();
  for (let attempt = 0; top > LOWEST && attempt < 50; attempt += 1) {
    const candidate = LOWEST + Math.floor(Math.random() * (top - LOWEST));
    if (handedOut.has(candidate)) continue;
    if ((await listenOnce(candidate, host)) === candidate && claimPort(candidate)) return candidate;
  }
  const port = await listenOnce(0, host);
  if (port === undefined) throw new Error(`no free port on ${host}`);
  return port;
}

import fs from 'node:fs';

/** The local addresses (as /proc/net/tcp* writes them, hex) that listen on `port`. */
export function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`))
    .map((fields) => fields[1]!.split(':')[0]!));
}

/** 127.0.0.1 as /proc/net/tcp writes it (little-endian hex). */
export const LOOPBACK_V4 = '0100007F';

export function processName(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

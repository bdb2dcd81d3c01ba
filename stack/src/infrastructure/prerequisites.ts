import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A program the distributed stack or a test needs is not installed; `install` is the command that fixes it. */
export class MissingPrerequisite extends Error {
  constructor(readonly what: string, readonly install: string, detail = 'not found') {
    super(`${what} ${detail}: ${install}`);
    this.name = 'MissingPrerequisite';
  }
}

/** Where downloaded tools (Kafka jars, Envoy) and reusable state live between runs. */
export function leadforgeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LEADFORGE_CACHE_DIR || path.join(os.homedir(), '.cache', 'leadforge');
}

/** Resolves once something accepts TCP connections on host:port; rejects after timeoutMs. */
export async function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await canConnect(port, host)) return;
    if (Date.now() > deadline) throw new Error(`nothing accepts connections on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function canConnect(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(false));
  });
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

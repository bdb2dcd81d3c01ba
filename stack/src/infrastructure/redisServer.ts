import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../freePort.ts';
import { isExecutable, MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, waitUntilReady } from './serverProcess.ts';

export interface RedisServerOptions {
  /** Holds the append-only file, so a second start on the same folder keeps the data; its log goes next to it. */
  dataDir: string;
  /** A free port when not given. */
  port?: number;
  /** Receives the server's log lines instead of `<dataDir>/../redis.log`. */
  log?: (line: string) => void;
  /** Addresses it listens on (default 127.0.0.1 only); the first is the one in `url`. */
  bind?: string[];
  /** Required of every client (Redis refuses clients from other addresses than loopback without one). */
  password?: string;
}

export interface RedisServer {
  port: number;
  /** The redis-server process itself. */
  pid: number;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  url: string;
  /** SIGTERM (Redis flushes its append-only file and exits); SIGKILL when it has not stopped after 15 s. */
  stop(): Promise<void>;
}

/** `redis-server` from PATH, else Debian's /usr/bin/redis-server. */
export function findRedisServer(): string {
  const candidates = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/usr/sbin'];
  const found = candidates.map((dir) => path.join(dir, 'redis-server')).find(isExecutable);
  if (!found) throw new MissingPrerequisite('Redis server (redis-server)', 'apt-get install -y redis-server');
  return found;
}

export async function startRedis(options: RedisServerOptions): Promise<RedisServer> {
  const binary = findRedisServer();
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const port = options.port ?? (await freePort());
  const server = spawnServer(binary, [
    '--port', String(port),
    '--bind', ...(options.bind ?? ['127.0.0.1']),
    '--protected-mode', 'yes',
    '--dir', dataDir,
    '--appendonly', 'yes',
    '--save', '',
    '--daemonize', 'no',
    ...(options.password ? ['--requirepass', options.password] : []),
  ], { cwd: dataDir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, log: options.log, logFile: path.join(path.dirname(dataDir), 'redis.log'), stopSignal: 'SIGTERM' });
  await waitUntilReady(server, `Redis on 127.0.0.1:${port} (${dataDir})`, () => pongs(port, options.password), 30_000);
  return {
    port,
    pid: server.pid,
    exited: server.exited,
    url: `redis://${options.password ? `:${encodeURIComponent(options.password)}@` : ''}${(options.bind ?? ['127.0.0.1'])[0]}:${port}`,
    stop: () => server.stop(15_000),
  };
}

function pongs(port: number, password?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let reply = '';
    const finish = (ok: boolean) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(1000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write(password ? `AUTH ${password}\r\nPING\r\n` : 'PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // With a password the AUTH's +OK comes first.
      const lines = reply.split('\r\n').filter(Boolean);
      if (lines.length >= (password ? 2 : 1)) finish(lines.at(-1)!.startsWith('+PONG'));
    });
  });
}

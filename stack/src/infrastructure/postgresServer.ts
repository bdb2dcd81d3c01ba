import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../freePort.ts';
import { isExecutable, MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, waitUntilReady } from './serverProcess.ts';

export interface PostgresServerOptions {
  /** The cluster's own folder (created by initdb when it holds no PG_VERSION); its log goes next to it. */
  dataDir: string;
  /** A free port when not given. */
  port?: number;
  /** Receives the server's log lines instead of `<dataDir>/../postgres.log`. */
  log?: (line: string) => void;
  /** Extra server settings (`-c name=value`), e.g. `{ fsync: 'off' }` for throwaway test data only. */
  settings?: Record<string, string | number>;
  /** Lines added to pg_hba.conf (once), e.g. password logins from a cluster's pod network. */
  hbaLines?: string[];
}

export interface PostgresServer {
  port: number;
  /** The postmaster itself. */
  pid: number;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  dataDir: string;
  url(database?: string): string;
  /** Creates the database when it does not exist yet. */
  ensureDatabase(name: string): Promise<void>;
  /** Fast shutdown (SIGINT); SIGKILL when it has not stopped after 30 s. */
  stop(): Promise<void>;
}

const INSTALL = 'apt-get install -y postgresql';
// sun_path holds 108 bytes with the terminating NUL.
const MAX_SOCKET_PATH = 107;

/** The newest PostgreSQL bin folder holding both `postgres` and `initdb` (Debian's layout first, then PATH). */
export function findPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+(\.\d+)?$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const candidates = [...versions.map((v) => path.join(root, v, 'bin')), ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  const bin = candidates.find((dir) => isExecutable(path.join(dir, 'postgres')) && isExecutable(path.join(dir, 'initdb')));
  if (!bin) throw new MissingPrerequisite('PostgreSQL server binaries', INSTALL);
  return bin;
}

export async function startPostgres(options: PostgresServerOptions): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const dataDir = path.resolve(options.dataDir);
  const user = serverUser();
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (user) assertReachable(dataDir, user);
  await initCluster(bin, dataDir, user);
  addHbaLines(dataDir, options.hbaLines ?? []);
  if (user && fs.statSync(dataDir).uid !== user.uid) chownTree(dataDir, user);

  const port = options.port ?? (await freePort());
  const socketDir = socketFolder(dataDir, port, user);
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: socketDir,
    // Every service process keeps its own pool; eight or more of them share this server.
    max_connections: 200,
    logging_collector: 'off',
    ...options.settings,
  };
  const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const server = spawnServer(path.join(bin, 'postgres'), args, {
    cwd: '/',
    env: serverEnv(),
    uid: user?.uid,
    gid: user?.gid,
    log: options.log,
    logFile: path.join(path.dirname(dataDir), 'postgres.log'),
    stopSignal: 'SIGINT',
  });
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const removeSocketDir = () => { if (socketDir !== dataDir) fs.rmSync(socketDir, { recursive: true, force: true }); };
  try {
    await waitUntilReady(server, `PostgreSQL on 127.0.0.1:${port} (${dataDir})`, () => answers(url()), 60_000);
  } catch (err) {
    removeSocketDir();
    throw err;
  }

  return {
    port,
    pid: server.pid,
    exited: server.exited,
    dataDir,
    url,
    async ensureDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (found.rowCount) return;
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
          // Another process created it between the check and here.
          if (err.code !== '42P04') throw err;
        });
      } finally {
        await client.end();
      }
    },
    async stop() {
      await server.stop(30_000);
      removeSocketDir();
    },
  };
}

interface ServerUser { uid: number; gid: number }

/** PostgreSQL refuses to run as root: as root we run it as Debian's `postgres` system user. */
function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entry = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('postgres:'));
  if (!entry) throw new MissingPrerequisite('the postgres system user (PostgreSQL refuses to run as root)', INSTALL);
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function assertReachable(dataDir: string, user: ServerUser): void {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const stat = fs.statSync(dir);
    const searchBit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
    if (!(stat.mode & searchBit)) {
      throw new Error(`PostgreSQL runs as the postgres user, who cannot enter ${dir}: put its data folder where that user can reach it (e.g. under /var/lib or /tmp), or allow it: chmod o+x ${dir}`);
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** initdb into a staging folder renamed into place, so an interrupted initdb never leaves a half cluster behind. */
async function initCluster(bin: string, dataDir: string, user: ServerUser | undefined): Promise<void> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) throw new Error(`${dataDir} is neither empty nor a PostgreSQL data folder`);
  const staging = `${dataDir}.initdb`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  if (user) fs.chownSync(staging, user.uid, user.gid);
  await new Promise<void>((resolve, reject) => {
    execFile(path.join(bin, 'initdb'), ['-D', staging, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'],
      { cwd: '/', env: serverEnv(), uid: user?.uid, gid: user?.gid },
      (err, stdout, stderr) => (err ? reject(new Error(`initdb ${dataDir} failed: ${stderr || err.message}`)) : resolve()));
  });
  if (fs.existsSync(dataDir)) fs.rmdirSync(dataDir);
  fs.renameSync(staging, dataDir);
}

function addHbaLines(dataDir: string, lines: string[]): void {
  const file = path.join(dataDir, 'pg_hba.conf');
  const present = new Set(fs.readFileSync(file, 'utf8').split('\n').map((line) => line.trim()));
  const missing = lines.filter((line) => !present.has(line.trim()));
  if (missing.length) fs.appendFileSync(file, `${missing.join('\n')}\n`);
}

function socketFolder(dataDir: string, port: number, user: ServerUser | undefined): string {
  if (path.join(dataDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH) return dataDir;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-pg-'));
  if (user) fs.chownSync(dir, user.uid, user.gid);
  return dir;
}

function chownTree(dir: string, user: ServerUser): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, user);
    else fs.lchownSync(full, user.uid, user.gid);
  }
}

function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@leadforge/stack';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

export interface TopologyEntry {
  name: string;
  pid: number;
  url?: string;
  bootstrap?: string;
}

export interface DistributedStackProcess {
  /** Envoy's public address. */
  url: string;
  dataDir: string;
  topology(): { url: string; components: TopologyEntry[] };
  component(name: string): TopologyEntry;
  output: () => string;
  /** Ctrl-C, as a user stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the product exactly as `npm run start:distributed` does, on a free port with its own data folder. */
export async function startDistributedStack(options: { dataDir?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<DistributedStackProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lf-dist-'));
  // PostgreSQL runs as the postgres user when we are root: it must be able to enter the folder.
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    TEST_DATABASE_URL: '',
    KAFKA_BROKERS: '',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, ['scripts/start-distributed.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`distributed stack did not start in time:\n${output}`));
    }, options.timeoutMs ?? 600_000);
    const check = () => {
      const m = output.match(/Leadforge \(distributed\) is running at (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`distributed stack exited with ${code}:\n${output}`)); });
  });

  const topology = () => JSON.parse(fs.readFileSync(path.join(dataDir, 'topology.json'), 'utf8'));
  return {
    url,
    dataDir,
    topology,
    component(name) {
      const found = topology().components.find((c: TopologyEntry) => c.name === name);
      if (!found) throw new Error(`no component ${name} in topology.json`);
      return found;
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

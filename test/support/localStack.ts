import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@leadforge/stack';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

export interface LocalStackProcess {
  url: string;
  dataDir: string;
  output: () => string;
  /** Ctrl-C, as a user stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the product exactly as `npm start` does, on a free port with its own data folder. */
export async function startLocalStack(options: { dataDir?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<LocalStackProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    TEST_DATABASE_URL: '',
    KAFKA_BROKERS: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start in time:\n${output}`)), options.timeoutMs ?? 240_000);
    const check = () => {
      const m = output.match(/Leadforge is running at (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`stack exited with ${code}:\n${output}`)); });
  });

  return {
    url,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

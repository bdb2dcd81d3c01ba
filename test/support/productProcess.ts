import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

export interface ProductProcess {
  url: string;
  /** The product's own process (its node, running every service locally, or the launcher in distributed mode). */
  pid: number;
  output: () => string;
  /** Ctrl-C, as a user stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Loaded first into every product process a test starts, so its traffic stays on loopback. */
const LOOPBACK_EGRESS_PRELOAD = new URL('./loopbackEgressPreload.mjs', import.meta.url).pathname;
/** Loaded too: V8's optimising compilers start later in a process that lives for seconds. */
const LATE_TIER_UP_PRELOAD = new URL('./lateTierUpPreload.mjs', import.meta.url).pathname;

/** The caller's environment for a product on `port` and `dataDir`, cleared of servers it must not share. */
export function isolatedEnv(port: number, dataDir: string, logLevel: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    TEST_DATABASE_URL: '',
    KAFKA_BROKERS: '',
    REDIS_URL: '',
    LOG_LEVEL: logLevel,
    ...env,
  };
  return { ...merged, NODE_OPTIONS: `--import ${LOOPBACK_EGRESS_PRELOAD} --import ${LATE_TIER_UP_PRELOAD} ${merged.NODE_OPTIONS ?? ''}`.trim() };
}

/** The node command line of one of package.json's scripts (`node <flags> <script>`), less `node`. */
export function nodeArgsOf(npmScript: string): string[] {
  const command: string | undefined = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts[npmScript];
  const [program, ...args] = command?.split(/\s+/) ?? [];
  if (program !== 'node') throw new Error(`package.json's ${npmScript} script is not a node command: ${command}`);
  return args;
}

/**
 * Runs one of the product's start scripts as a user would (`npm start`, `npm run start:distributed`:
 * the node command line package.json gives, without npm's own process) and resolves with the address
 * its ready line announces.
 */
export async function startProductProcess(npmScript: 'start' | 'start:distributed', env: NodeJS.ProcessEnv, readyLine: RegExp, timeoutMs: number): Promise<ProductProcess> {
  const script = `npm run ${npmScript}`;
  const child: ChildProcess = spawn(process.execPath, nodeArgsOf(npmScript), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`${script} did not start in time:\n${output}`));
    }, timeoutMs);
    child.stdout!.on('data', () => {
      const m = output.match(readyLine);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${script} exited with ${code}:\n${output}`)); });
  });

  return {
    url,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** Whether a process still runs (a zombie, dead but not yet reaped by its parent, does not). */
export const processAlive = (pid: number): boolean => fs.existsSync(`/proc/${pid}`) && !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

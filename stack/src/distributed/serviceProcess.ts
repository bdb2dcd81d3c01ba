import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(new URL('../../..', import.meta.url).pathname);
/** The image's entry point (deploy/docker/service.Dockerfile), run through tsx as locally everywhere. */
const ENTRY = path.join(ROOT, 'deploy', 'docker', 'runService.ts');

export interface ServiceProcess {
  /** `auth`, or `scraper-2` for a replica. */
  name: string;
  service: string;
  pid: number;
  url: string;
  port: number;
  logFile: string;
  /** SIGTERM, as Kubernetes stops a pod; SIGKILL after the timeout. */
  stop(timeoutMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

function run(args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  // Its own process group: a terminal's Ctrl-C reaches the launcher, which stops services in order.
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: ROOT, env, stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** `runService.ts <service> --migrate-only`: the chart's pre-upgrade Job. */
export async function migrateService(service: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const child = run([service, '--migrate-only'], env, logFile);
  const code = await exitOf(child);
  if (code !== 0) throw new Error(`${service}: migrations failed (exit ${code}); ${logFile}:\n${tail(logFile)}`);
}

async function waitReady(url: string, child: ChildProcess, name: string, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) while starting; ${logFile}:\n${tail(logFile)}`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s; ${logFile}:\n${tail(logFile)}`);
}

/** One service process as a pod runs it: `runService.ts <service>` on its own loopback port. */
export async function startServiceProcess(options: {
  name: string;
  service: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logDir: string;
  readyTimeoutMs?: number;
}): Promise<ServiceProcess> {
  const { name, service, port } = options;
  const logFile = path.join(options.logDir, `${name}.log`);
  const env = { ...options.env, PORT: String(port), SERVICE_HOST: '127.0.0.1', LEADFORGE_SERVICE: service };
  const child = run([service], env, logFile);
  const url = `http://127.0.0.1:${port}`;
  const exited = exitOf(child);
  try {
    await waitReady(url, child, name, logFile, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    name,
    service,
    pid: child.pid!,
    url,
    port,
    logFile,
    exited,
    async stop(timeoutMs = 25_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

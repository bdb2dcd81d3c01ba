import path from 'node:path';
import { spawnServer, waitUntilReady } from '../infrastructure/serverProcess.ts';

const ROOT = path.resolve(new URL('../../..', import.meta.url).pathname);

/** How production runs a service: the compiled entry point, the packages' dist/ chosen by the leadforge-dist condition. */
export const COMPILED_NODE_OPTIONS = ['--conditions=leadforge-dist', '--enable-source-maps'];
export const COMPILED_ENTRY = path.join(ROOT, 'packages', 'service-runner', 'dist', 'runService.js');

export interface ServiceProcess {
  /** `auth`, or `scraper-2` for a replica. */
  name: string;
  service: string;
  pid: number;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  url: string;
  port: number;
  logFile: string;
  /** SIGTERM, as Kubernetes stops a pod; SIGKILL after the timeout. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * The image's entry point (deploy/docker/service.Dockerfile) as the image runs it: compiled JavaScript
 * (`npm run build:services`, which start:distributed runs when the sources changed), no loader.
 */
const runService = (args: string[], env: NodeJS.ProcessEnv, logFile: string) =>
  spawnServer(process.execPath, [...COMPILED_NODE_OPTIONS, COMPILED_ENTRY, ...args], { cwd: ROOT, env, logFile });

/** `runService.ts <service> --migrate-only`: the chart's pre-upgrade Job. */
export async function migrateService(service: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const migration = runService([service, '--migrate-only'], env, logFile);
  const outcome = await migration.exited;
  if (outcome !== 'exited with code 0') throw new Error(`${service}: migrations failed (${outcome}); ${logFile}:\n${migration.logTail()}`);
}

/** One service process as a pod runs it: `runService.ts <service>` on its own loopback port. */
export async function startServiceProcess(options: {
  name: string;
  service: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logDir: string;
  readyTimeoutMs?: number;
  /** Aborting stops the process before it is ready, and rejects. */
  signal?: AbortSignal;
}): Promise<ServiceProcess> {
  const { name, service, port } = options;
  const logFile = path.join(options.logDir, `${name}.log`);
  const server = runService([service], { ...options.env, PORT: String(port), SERVICE_HOST: '127.0.0.1', LEADFORGE_SERVICE: service }, logFile);
  const url = `http://127.0.0.1:${port}`;
  const ready = () => fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
  await waitUntilReady(server, name, ready, options.readyTimeoutMs ?? 120_000, options.signal);
  return { name, service, pid: server.pid, exited: server.exited, url, port, logFile, stop: (timeoutMs = 25_000) => server.stop(timeoutMs) };
}

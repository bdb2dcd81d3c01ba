import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../stack/src/freePort.ts';
import { isolatedEnv, startProductProcess, type ProductProcess } from './productProcess.ts';

export interface TopologyEntry {
  name: string;
  pid: number;
  url?: string;
  bootstrap?: string;
  /** The launcher restarts a component that dies: `restarting` until its new process (a new pid) is up. */
  status: 'running' | 'restarting' | 'stopped';
  /** Times it was started again after it died. */
  restarts: number;
  /** How its last process ended, e.g. `killed by SIGKILL`. */
  last_exit?: string;
  /** With LEADFORGE_RUNTIME=containers, for the services and the web server. */
  container?: string;
  image?: string;
}

export interface Topology {
  url: string;
  /** The launcher's own health (`GET <health>/healthz`: 200 while every component runs, 503 while one restarts). */
  health: string;
  /** Prometheus, scraping every service process (deploy/prometheus/prometheus.yaml). */
  prometheus?: string;
  status: 'starting' | 'running' | 'degraded' | 'stopping';
  components: TopologyEntry[];
}

export interface DistributedStackProcess extends ProductProcess {
  /** Envoy's public address (`url`). */
  dataDir: string;
  topology(): Topology;
  component(name: string): TopologyEntry;
}

/**
 * Consumer groups that let go of a killed process's member after 6 s (the least the kit takes) instead
 * of the default 30 s: until then the group holds its partitions, and the restarted process waits.
 */
export const SHORT_KAFKA_SESSIONS = { KAFKA_SESSION_TIMEOUT_MS: '6000', KAFKA_HEARTBEAT_INTERVAL_MS: '1000' };

/** `✓ <name> ... pid <pid>` lines: what the launcher started, in order. */
export const startedLines = (output: string) => [...output.matchAll(/✓ (\S+)\s+.*?pid (\d+)/g)].map((m) => ({ name: m[1], pid: Number(m[2]) }));
/** `■ stopped <name> (pid <pid>)` lines: what it stopped, in order. */
export const stoppedLines = (output: string) => [...output.matchAll(/■ stopped (\S+) \(pid (\d+)\)/g)].map((m) => ({ name: m[1], pid: Number(m[2]) }));

/** Starts the product exactly as `npm run start:distributed` does, on a free port with its own data folder. */
export async function startDistributedStack(options: {
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** LEADFORGE_RUNTIME: `processes` unless a test asks for the images, whatever the run's environment says. */
  runtime?: 'processes' | 'containers';
} = {}): Promise<DistributedStackProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lf-dist-'));
  // PostgreSQL runs as the postgres user when we are root: it must be able to enter the folder.
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const env = isolatedEnv(port, dataDir, 'info', { ...options.env, LEADFORGE_RUNTIME: options.runtime ?? 'processes' });
  const product = await startProductProcess('start:distributed', env, /Leadforge \(distributed\) is running at (http:\/\/\S+)/, options.timeoutMs ?? 600_000);
  const topology = () => JSON.parse(fs.readFileSync(path.join(dataDir, 'topology.json'), 'utf8'));
  return {
    ...product,
    dataDir,
    topology,
    component(name) {
      const found = topology().components.find((c: TopologyEntry) => c.name === name);
      if (!found) throw new Error(`no component ${name} in topology.json`);
      return found;
    },
  };
}

const FIXTURE_HOSTS_PRELOAD = new URL('./fixtureHostsPreload.mjs', import.meta.url).pathname;

/**
 * The lead engine of a distributed product pointed at a fixture web: its maps source, and its sites
 * reached through its forward proxy (as through Decodo's). A scraper in a process of its own cannot be
 * handed the in-process host look-up local tests inject, so a preload resolves *.fixture.test names
 * to loopback in the product's processes, as a DNS record would.
 */
export function fixtureWebEnv(urls: { nominatim: string; overpass: string; proxy: string }): NodeJS.ProcessEnv {
  return {
    PLACES_SOURCE: 'osm',
    NOMINATIM_URL: urls.nominatim,
    OVERPASS_URL: urls.overpass,
    DECODO_PROXY_URL: urls.proxy,
    SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
    EMAIL_MX_CHECK: 'false',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${FIXTURE_HOSTS_PRELOAD}`.trim(),
  };
}

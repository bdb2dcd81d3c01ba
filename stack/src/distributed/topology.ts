import fs from 'node:fs';
import { freePort } from '../freePort.ts';
import { componentReport, launcherStatus, startLauncherHealth, supervise, type Component, type StartedProcess } from './supervision.ts';

export interface TopologyOptions {
  /** The topology file: written as components start, die and come back; removed once all stopped. */
  file: string;
  /** Envoy's public address, as the topology file reports it. */
  url: string;
  /** One line per component as it starts and stops. */
  progress: (line: string) => void;
  /** Once aborted, no new stage begins. */
  signal?: AbortSignal;
}

/** The components of one distributed start, in stages, with the launcher's health and the topology file. */
export interface Topology {
  readonly file: string;
  /** Every component started, in order of start. */
  readonly components: Component[];
  /** The launcher's own health: `GET <healthUrl>/healthz`, 503 while a component is being restarted. */
  readonly healthUrl: string;
  /** Begins a stage: the components started from now on stop together, before those of earlier stages. */
  stage(): void;
  /** Starts a component in the current stage, then keeps it running: `launch` starts it again whenever it dies. */
  track<T extends StartedProcess>(name: string, launch: () => Promise<T>): Promise<T>;
  /** Everything has started: the topology says so, with Prometheus's address. */
  running(prometheusUrl: string): void;
  /** Everything, stage by stage in reverse order of start; then the topology file and the health go. */
  stop(): Promise<void>;
}

export async function startTopology({ file, url, progress, signal }: TopologyOptions): Promise<Topology> {
  const started: Component[] = [];
  // Components started together stop together, stage by stage in reverse order.
  const stages: Component[][] = [];
  let prometheusUrl = '';
  let starting = true;
  let stopping = false;
  let stopped = false;
  const startedAt = new Date().toISOString();
  const health = await startLauncherHealth(await freePort(), () => ({ status: launcherStatus(starting, stopping, started), components: started }));
  // Rewritten whenever a component dies or comes back, so whoever watches the topology sees it.
  const writeTopology = () => {
    if (stopped) return;
    const topology = {
      url,
      health: health.url,
      ...(prometheusUrl ? { prometheus: prometheusUrl } : {}),
      status: launcherStatus(starting, stopping, started),
      started_at: startedAt,
      components: started.map(componentReport),
    };
    fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(topology, null, 2)}\n`);
    fs.renameSync(`${file}.tmp`, file);
  };
  const supervision = { report: progress, changed: writeTopology };

  return {
    file,
    components: started,
    healthUrl: health.url,

    stage() {
      signal?.throwIfAborted();
      stages.push([]);
    },

    async track<T extends StartedProcess>(name: string, launch: () => Promise<T>): Promise<T> {
      const since = Date.now();
      const first = await launch();
      const component = supervise(name, first, launch, supervision);
      started.push(component);
      stages.at(-1)!.push(component);
      const address = component.url ?? component.bootstrap ?? '';
      progress(`  ✓ ${name.padEnd(10)} ${address.padEnd(30)} pid ${String(component.pid).padEnd(8)} ${((Date.now() - since) / 1000).toFixed(1)} s`);
      writeTopology();
      return first;
    },

    running(prometheus) {
      prometheusUrl = prometheus;
      signal?.throwIfAborted();
      starting = false;
      writeTopology();
    },

    async stop() {
      stopping = true;
      writeTopology();
      for (const components of [...stages].reverse()) {
        await Promise.all(components.map(async (c) => {
          const pid = c.pid;
          await c.stop().catch(() => undefined);
          progress(`  ■ stopped ${c.name} (pid ${pid})`);
        }));
      }
      stopped = true;
      fs.rmSync(file, { force: true });
      await health.close();
    },
  };
}

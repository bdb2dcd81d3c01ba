import http from 'node:http';
import { backoffWithJitter } from '@leadforge/kit/work';

/** A process of the topology as one start of it left it. */
export interface StartedProcess {
  pid: number;
  url?: string;
  bootstrap?: string;
  /** When it runs from an image: the container's name and image. */
  container?: string;
  image?: string;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  stop(): Promise<unknown>;
}

/** `running`; `restarting` after it died, until a new process of it is up; `stopped` once the launcher stopped it. */
export type ComponentStatus = 'running' | 'restarting' | 'stopped';

/** A process of the topology, as topology.json lists it. */
export interface Component {
  name: string;
  pid: number;
  url?: string;
  bootstrap?: string;
  container?: string;
  image?: string;
  status: ComponentStatus;
  /** Times it was started again after it died. */
  restarts: number;
  /** How its last process ended, e.g. `killed by SIGKILL`. */
  lastExit?: string;
  stop(): Promise<unknown>;
}

export interface SupervisionOptions {
  /** One line per death and restart. */
  report(line: string): void;
  /** Called whenever a component's pid or status changes. */
  changed(): void;
  /** The restart backoff (the kit's `backoffWithJitter`). */
  backoff?: { baseMs: number; maxMs: number };
  /** A process that ran this long before it died starts the backoff over. */
  stableAfterMs?: number;
}

const DEFAULT_BACKOFF = { baseMs: 1_000, maxMs: 30_000 };
const DEFAULT_STABLE_AFTER_MS = 60_000;

/**
 * Keeps a started process running: when it dies (not stopped by us) it is started again by the same
 * `launch`, after a jittered backoff that grows while restarts keep failing or dying young. A restarted
 * process keeps its address (the launchers reuse the port), so only its pid changes.
 */
export function supervise(name: string, first: StartedProcess, launch: () => Promise<StartedProcess>, options: SupervisionOptions): Component {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const stableAfterMs = options.stableAfterMs ?? DEFAULT_STABLE_AFTER_MS;
  let current = first;
  let startedAt = Date.now();
  let failures = 0;
  let stopping = false;
  let wake: (() => void) | undefined;
  let relaunch: Promise<unknown> = Promise.resolve();

  const component: Component = {
    name,
    pid: first.pid,
    url: first.url,
    bootstrap: first.bootstrap,
    container: first.container,
    image: first.image,
    status: 'running',
    restarts: 0,
    async stop() {
      stopping = true;
      wake?.();
      await relaunch;
      await current.stop();
      component.status = 'stopped';
      options.changed();
    },
  };

  const pause = (ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => { clearTimeout(timer); resolve(); };
  });

  async function restart(how: string): Promise<void> {
    component.status = 'restarting';
    component.lastExit = how;
    options.changed();
    if (Date.now() - startedAt >= stableAfterMs) failures = 0;
    let reason = how;
    while (!stopping) {
      failures += 1;
      const delayMs = backoffWithJitter(failures, backoff);
      options.report(`  ✗ ${name} ${reason}; restarting in ${(delayMs / 1000).toFixed(1)} s (restart ${component.restarts + 1})`);
      await pause(delayMs);
      if (stopping) return;
      try {
        const next = await launch();
        if (stopping) {
          await next.stop();
          return;
        }
        current = next;
        startedAt = Date.now();
        Object.assign(component, { pid: next.pid, status: 'running', restarts: component.restarts + 1 });
        options.report(`  ↻ ${name.padEnd(10)} restarted, pid ${next.pid} (restart ${component.restarts})`);
        options.changed();
        watch(next);
        return;
      } catch (error) {
        reason = `did not restart: ${String((error as Error)?.message ?? error).split('\n')[0]}`;
      }
    }
  }

  function watch(process: StartedProcess) {
    void process.exited.then((how) => {
      if (stopping || process !== current) return;
      relaunch = restart(how);
    });
  }
  watch(first);
  return component;
}

export type LauncherStatus = 'starting' | 'running' | 'degraded' | 'stopping';

/** The launcher's own state: `running` when every component is, `degraded` while one is being restarted. */
export function launcherStatus(starting: boolean, stopping: boolean, components: Component[]): LauncherStatus {
  if (stopping) return 'stopping';
  if (starting) return 'starting';
  return components.every((c) => c.status === 'running') ? 'running' : 'degraded';
}

export function componentReport(c: Component) {
  return {
    name: c.name,
    pid: c.pid,
    ...(c.bootstrap ? { bootstrap: c.bootstrap } : { url: c.url }),
    ...(c.container ? { container: c.container, image: c.image } : {}),
    status: c.status,
    restarts: c.restarts,
    ...(c.lastExit ? { last_exit: c.lastExit } : {}),
  };
}

/**
 * The launcher's health on a loopback port: `GET /healthz` answers 200 while every component runs and
 * 503 while one is being restarted (or the launcher starts or stops), with each component's state.
 */
export async function startLauncherHealth(port: number, state: () => { status: LauncherStatus; components: Component[] }): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const { status, components } = state();
    const found = request.method === 'GET' && request.url === '/healthz';
    const body = found ? { status, components: components.map(componentReport) } : { detail: 'Only GET /healthz is served here.' };
    response.writeHead(found ? (status === 'running' ? 200 : 503) : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

import type { FastifyInstance } from 'fastify';
import { Gauge, register } from 'prom-client';

export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
  /**
   * false: the result is reported (in /readyz and leadforge_dependency_up) but never makes the
   * instance unready. For a dependency every replica shares, whose outage the service rides out
   * (the event bus: the outbox keeps events until it is back); unready pods would only turn that
   * outage into a full one. Default true.
   */
  gatesReadiness?: boolean;
}

/** A dependency that does not answer within this is counted down, so a probe never hangs on it. */
const CHECK_TIMEOUT_MS = 2_000;
/** How long a probe waits for a check that does not gate readiness before reporting its last known result. */
const REPORT_WAIT_MS = 500;

const dependencyUp = (register.getSingleMetric('leadforge_dependency_up') as Gauge<'dependency'> | undefined)
  ?? new Gauge({ name: 'leadforge_dependency_up', help: 'Whether a dependency answered its last readiness check (1) or not (0).', labelNames: ['dependency'] });

function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => { timer = setTimeout(resolve, ms, fallback); });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz`: the process answers. `/readyz`: the dependencies that gate readiness answer and it is
 * not shutting down; the others are reported alongside without slowing the probe down.
 */
export function registerHealth(app: FastifyInstance, checks: ReadinessCheck[], isShuttingDown: () => boolean): void {
  const lastKnown = new Map<string, boolean>();
  const running = new Map<string, Promise<boolean>>();
  // One check per dependency at a time, however many probes come in meanwhile.
  const run = (c: ReadinessCheck): Promise<boolean> => {
    let result = running.get(c.name);
    if (!result) {
      result = within(c.check().catch(() => false), CHECK_TIMEOUT_MS, false).then((pass) => {
        lastKnown.set(c.name, pass);
        dependencyUp.set({ dependency: c.name }, pass ? 1 : 0);
        return pass;
      }).finally(() => running.delete(c.name));
      running.set(c.name, result);
    }
    return result;
  };

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (isShuttingDown()) return reply.status(503).send({ status: 'shutting_down' });
    const results = await Promise.all(checks.map(async (c) => {
      const gates = c.gatesReadiness !== false;
      const pass = gates ? await run(c) : await within(run(c), REPORT_WAIT_MS, lastKnown.get(c.name) ?? false);
      return { name: c.name, pass, gates };
    }));
    const ok = results.every(({ pass, gates }) => pass || !gates);
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks: Object.fromEntries(results.map(({ name, pass }) => [name, pass])) });
  });
}

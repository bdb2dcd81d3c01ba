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

const dependencyUp = (register.getSingleMetric('leadforge_dependency_up') as Gauge<'dependency'> | undefined)
  ?? new Gauge({ name: 'leadforge_dependency_up', help: 'Whether a dependency answered its last readiness check (1) or not (0).', labelNames: ['dependency'] });

function withinTimeout(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(resolve, CHECK_TIMEOUT_MS, false); });
  return Promise.race([check().catch(() => false), timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz`: the process answers. `/readyz`: the dependencies that gate readiness answer and it is
 * not shutting down; the others are reported alongside.
 */
export function registerHealth(app: FastifyInstance, checks: ReadinessCheck[], isShuttingDown: () => boolean): void {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (isShuttingDown()) return reply.status(503).send({ status: 'shutting_down' });
    const results = await Promise.all(checks.map(async (c) => {
      const pass = await withinTimeout(() => c.check());
      dependencyUp.set({ dependency: c.name }, pass ? 1 : 0);
      return { name: c.name, pass, gates: c.gatesReadiness !== false };
    }));
    const ok = results.every(({ pass, gates }) => pass || !gates);
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks: Object.fromEntries(results.map(({ name, pass }) => [name, pass])) });
  });
}

import type { FastifyInstance } from 'fastify';
import pg from 'pg';
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

/** A dependency that does not answer within this is counted down. */
const CHECK_TIMEOUT_MS = 2_000;
/** How often each dependency is checked in the background; /readyz answers from the last results. */
const REFRESH_MS = 1_000;
/** Before a check's first result, how long a probe waits for a check that does not gate readiness. */
const REPORT_WAIT_MS = 500;

const dependencyUp = (register.getSingleMetric('leadforge_dependency_up') as Gauge<'dependency'> | undefined)
  ?? new Gauge({ name: 'leadforge_dependency_up', help: 'Whether a dependency answered its last readiness check (1) or not (0).', labelNames: ['dependency'] });

function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => { timer = setTimeout(resolve, ms, fallback); });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz`: the process answers. `/readyz`: the dependencies that gate readiness answered their last
 * check and it is not shutting down; the others are reported alongside. The checks run in the
 * background, one at a time per dependency, so a probe never waits on a slow dependency or on work
 * queued in front of a check (a probe waits only for a check's very first result, at start).
 */
export function registerHealth(app: FastifyInstance, checks: ReadinessCheck[], isShuttingDown: () => boolean): void {
  const lastKnown = new Map<string, boolean>();
  const firstResult = new Map<string, Promise<boolean>>();
  // A check that outlasted its timeout is waited for again rather than started twice (a frozen broker
  // would otherwise collect a pending request a second).
  const inFlight = new Map<string, Promise<boolean>>();
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();

  const runOnce = (c: ReadinessCheck): Promise<boolean> => {
    let running = inFlight.get(c.name);
    if (!running) {
      running = c.check().catch(() => false).finally(() => inFlight.delete(c.name));
      inFlight.set(c.name, running);
    }
    return running;
  };
  const refresh = (c: ReadinessCheck): Promise<boolean> => within(runOnce(c), CHECK_TIMEOUT_MS, false).then((pass) => {
    lastKnown.set(c.name, pass);
    dependencyUp.set({ dependency: c.name }, pass ? 1 : 0);
    if (!closed) {
      const timer = setTimeout(() => { timers.delete(timer); void refresh(c); }, REFRESH_MS);
      // The refresh alone never keeps a process alive.
      timer.unref();
      timers.add(timer);
    }
    return pass;
  });
  for (const c of checks) firstResult.set(c.name, refresh(c));
  app.addHook('onClose', async () => {
    closed = true;
    for (const timer of timers) clearTimeout(timer);
  });

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (isShuttingDown()) return reply.status(503).send({ status: 'shutting_down' });
    const results = await Promise.all(checks.map(async (c) => {
      const gates = c.gatesReadiness !== false;
      const known = lastKnown.get(c.name);
      const pass = known ?? (gates ? await firstResult.get(c.name)! : await within(firstResult.get(c.name)!, REPORT_WAIT_MS, false));
      return { name: c.name, pass, gates };
    }));
    const ok = results.every(({ pass, gates }) => pass || !gates);
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks: Object.fromEntries(results.map(({ name, pass }) => [name, pass])) });
  });
}

/**
 * Whether a PostgreSQL server answers, on a connection of its own: a check through the service's pool
 * would queue behind the work holding every pooled connection and count a busy database as down.
 */
export function postgresAnswers(url: string): { check(): Promise<boolean>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  const drop = (broken: pg.Client) => {
    if (client === broken) client = undefined;
    void broken.end().catch(() => undefined);
  };
  return {
    async check() {
      if (closed) return false;
      if (!client) {
        const fresh = new pg.Client({ connectionString: url, connectionTimeoutMillis: CHECK_TIMEOUT_MS, query_timeout: CHECK_TIMEOUT_MS, application_name: 'leadforge-readiness' });
        fresh.on('error', () => drop(fresh));
        client = fresh;
        try {
          await fresh.connect();
        } catch {
          drop(fresh);
          return false;
        }
      }
      const current = client;
      try {
        await current.query('select 1');
        return true;
      } catch {
        drop(current);
        return false;
      }
    },
    async close() {
      closed = true;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

import type { FastifyInstance } from 'fastify';

export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
}

/** `/healthz`: the process answers. `/readyz`: its dependencies answer and it is not shutting down. */
export function registerHealth(app: FastifyInstance, checks: ReadinessCheck[], isShuttingDown: () => boolean): void {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (isShuttingDown()) return reply.status(503).send({ status: 'shutting_down' });
    const results = await Promise.all(checks.map(async (c) => {
      try {
        return [c.name, await c.check()] as const;
      } catch {
        return [c.name, false] as const;
      }
    }));
    const ok = results.every(([, pass]) => pass);
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
}

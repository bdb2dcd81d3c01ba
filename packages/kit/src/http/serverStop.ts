import type { FastifyInstance } from 'fastify';
import type { StopStep } from '../work/deadline.ts';

/**
 * The stop step of an HTTP server: the requests under way finish, then every connection left is
 * closed at once. Node closes only idle connections at a close, so a client that had connected but
 * not yet sent (or finished sending) a request held the whole stop until its deadline. A step that
 * overruns names the requests still open. Call before the routes are registered.
 */
export function serverStopStep(app: FastifyInstance): StopStep {
  const inFlight = new Map<string, { method: string; url: string; since: number }>();
  let requestsEnded: (() => void) | undefined;
  app.addHook('onRequest', async (request, reply) => {
    inFlight.set(request.id, { method: request.method, url: request.url, since: Date.now() });
    reply.raw.once('close', () => {
      inFlight.delete(request.id);
      if (inFlight.size === 0) requestsEnded?.();
    });
  });
  return {
    name: 'in-flight requests',
    async stop() {
      const closing = app.close();
      if (inFlight.size > 0) await new Promise<void>((resolve) => { requestsEnded = resolve; });
      app.server.closeAllConnections();
      await closing;
    },
    force: () => app.server.closeAllConnections(),
    pending: () => [...inFlight.values()].slice(0, 10).map((r) => `${r.method} ${r.url.split('?')[0]} for ${Date.now() - r.since} ms`),
  };
}

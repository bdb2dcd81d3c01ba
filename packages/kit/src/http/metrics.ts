import type { FastifyInstance } from 'fastify';
import client, { Registry } from 'prom-client';

let defaultsCollected = false;

/** Per-service HTTP metrics in the service's own registry, merged with the process-wide one on /metrics. */
export function registerMetrics(app: FastifyInstance, service: string): Registry {
  if (!defaultsCollected) {
    client.collectDefaultMetrics();
    defaultsCollected = true;
  }
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const duration = new client.Histogram({
    name: 'leadforge_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const merged = Registry.merge([registry, client.register]);
    reply.header('content-type', merged.contentType);
    return merged.metrics();
  });
  return registry;
}

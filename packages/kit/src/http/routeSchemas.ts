import type { FastifyInstance, FastifySchema } from 'fastify';

/** One public route as the service registered it: the schemas it validates and answers with. */
export interface RecordedRoute {
  method: string;
  /** Fastify's path, `:param` placeholders included. */
  url: string;
  schema?: FastifySchema;
}

/**
 * Records the `/api/*` routes a service registers with their schemas, so the OpenAPI document is made
 * from what the services really validate (stack/src/openapi/generateOpenApi.ts), never retyped.
 */
export function recordApiRoutes(app: FastifyInstance): RecordedRoute[] {
  const recorded: RecordedRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      recorded.push({ method, url: route.url, schema: route.schema });
    }
  });
  return recorded;
}

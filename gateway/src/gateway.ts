import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import pino, { type Logger } from 'pino';
import { ROUTES, matchRoute, pathExists, type ApiKeyIdentity, type RouteEntry, type ServiceName } from '@leadforge/contracts';
import { stopInOrder } from '@leadforge/kit/work';
import { GATEWAY_PROOF_HEADER, InternalClient, checkQueryEscapes, detailedFrameworkErrors, registerAuthentication, registerErrorHandling, HttpError, serverStopStep } from '@leadforge/kit/http';
import { loadGatewayConfig } from './config.ts';
import { registerSecurityHeaders } from './securityHeaders.ts';

export interface GatewayOptions {
  port: number;
  host?: string;
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** The built SPA (web/dist; WEB_DIST unless given); when missing, only /api is served. */
  webDist?: string;
  logger?: Logger;
  bodyLimitBytes?: number;
  /** Proves to the services that a request came through here (they believe its X-Forwarded-For only then); the services' internal token by default. */
  internalToken?: string;
  /** How long `close` waits for requests in flight (SHUTDOWN_TIMEOUT_SECONDS by default). */
  shutdownTimeoutMs?: number;
}

export interface RunningGateway {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    route?: RouteEntry;
  }
}

/**
 * The local gateway: `/api/*` by the route table to each owning service, the access check at the
 * edge (services check again), and the SPA with history fallback. `/internal/*` is never routed.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const config = loadGatewayConfig();
  const log = options.logger ?? pino({ level: config.logLevel });
  const internalToken = options.internalToken ?? config.internalToken;
  const app = Fastify({
    loggerInstance: log.child({ service: 'gateway' }) as unknown as FastifyBaseLogger,
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    trustProxy: false,
    genReqId: () => crypto.randomUUID(),
    // The whole path after /api/ is one wildcard parameter here; its length is the service's to judge.
    routerOptions: { maxParamLength: 8192 },
    ...detailedFrameworkErrors,
  }) as unknown as FastifyInstance;
  const serverStop = serverStopStep(app);
  registerErrorHandling(app);
  await registerSecurityHeaders(app);

  // Bodies pass through untouched; the owning service parses and validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  await app.register(replyFrom, {
    undici: { headersTimeout: 10 * 60 * 1000, bodyTimeout: 0, connections: 128 },
  });

  const authUrl = options.serviceUrls.auth;
  const internal = new InternalClient(options.serviceUrls, internalToken);
  await registerAuthentication(app, {
    jwksBaseUrl: authUrl,
    // At the edge the signed claims are enough; the owning service re-reads the user's standing.
    lookupStanding: async (_id, claims) => ({ role: claims.role, status: 'active' }),
    // A revoked or expired key stops here; the owning service checks it again and counts its rate.
    apiKeys: {
      verify: (key) => internal.call<ApiKeyIdentity>('auth', 'POST', '/internal/api-keys/verify', { body: { key }, timeoutMs: 2000, idempotent: true })
        .catch((err) => { if (err?.statusCode === 404) return null; throw err; }),
    },
  });

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async () => ({ status: 'ready' }));

  async function forward(request: FastifyRequest, reply: import('fastify').FastifyReply) {
    const path = request.url.split('?')[0];
    // reply-from decodes the whole address and would throw on `?x=%ff`.
    checkQueryEscapes(request);
    const route = matchRoute(request.method, path);
    if (!route) {
      if (pathExists(path)) throw new HttpError(405, `Method ${request.method} is not allowed on ${path}`, 'method_not_allowed');
      throw new HttpError(404, `Not found: ${request.method} ${path}`, 'not_found');
    }
    if (route.access === 'user') await app.requireUser(request);
    if (route.access === 'admin') await app.requireAdmin(request);
    const upstream = options.serviceUrls[route.service];
    if (!upstream) throw new HttpError(503, `The ${route.service} service is not available yet`, 'service_unavailable');
    const body = request.body as Buffer | undefined;
    return reply.from(`${upstream}${request.url}`, {
      // Forward the bytes as they came (reply-from would re-encode a JSON body otherwise).
      ...(body?.length ? { body, contentType: String(request.headers['content-type'] ?? 'application/octet-stream') } : {}),
      rewriteRequestHeaders: (_req, headers) => ({
        ...headers,
        'x-forwarded-for': request.ip,
        'x-forwarded-proto': request.protocol,
        'x-request-id': String(request.id),
        [GATEWAY_PROOF_HEADER]: internalToken,
      }),
      onError: (rep, { error }) => {
        request.log.warn({ err: error, service: route.service }, 'upstream failed');
        rep.status(502).send({ detail: `The ${route.service} service did not answer; please try again`, code: 'bad_gateway' });
      },
    });
  }

  app.all('/api/*', forward);
  app.all('/.well-known/*', async () => { throw new HttpError(404, 'Not found', 'not_found'); });
  app.all('/internal/*', async () => { throw new HttpError(404, 'Not found', 'not_found'); });

  const givenWebDist = options.webDist ?? config.webDist;
  const webDist = givenWebDist && fs.existsSync(path.join(givenWebDist, 'index.html')) ? givenWebDist : undefined;
  if (webDist) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, maxAge: '1h', immutable: true, cacheControl: true });
    // Read for each page, as the assets are: a gateway that outlives a rebuild of the SPA (its
    // fingerprinted assets replaced) serves the index that names the new ones.
    const sendIndex = async (_req: FastifyRequest, reply: import('fastify').FastifyReply) => {
      const indexHtml = await fs.promises.readFile(path.join(webDist, 'index.html')).catch(() => {
        throw new HttpError(503, 'The web app is being built; try again in a moment', 'web_unavailable');
      });
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    };
    app.get('/', sendIndex);
    // Files under /assets are fingerprinted; anything else that is not a file is a client-side route.
    app.get('/*', async (request, reply) => {
      const rel = decodeURIComponent(request.url.split('?')[0]).replace(/^\/+/, '');
      const file = path.join(webDist, rel);
      if (rel && file.startsWith(webDist) && fs.existsSync(file) && fs.statSync(file).isFile()) return reply.sendFile(rel);
      if (rel.startsWith('assets/')) throw new HttpError(404, 'Not found', 'not_found');
      return sendIndex(request, reply);
    });
  }

  await app.listen({ port: options.port, host: options.host ?? '0.0.0.0' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? config.shutdownTimeoutMs;
  return {
    app,
    url: `http://localhost:${port}`,
    // A stream still open at the deadline (a live search feed) is cut; its client reconnects elsewhere.
    close: () => stopInOrder([serverStop], { ms: shutdownTimeoutMs, log, what: 'the gateway' }),
  };
}

export { ROUTES };

import type { App } from '@leadforge/kit/service';
import { handle, internalGuard, notFound, principalOf, rateLimited, unauthorized } from '@leadforge/kit/http';
import { API_KEY_HEADER, API_KEY_ROUTES, ApiKeyIdentity, VerifyApiKeyRequest } from '@leadforge/contracts';
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from '../domain/apiKeys.ts';
import type { AuthRuntime } from '../runtime.ts';

const HOUR = 3600_000;
/** Where the edge (Envoy's ext_authz) checks a key; gateway/src/envoyConfig.ts names the same path. */
export const API_KEY_CHECK_PATH = '/internal/api-keys/check';

/** A user's API keys (by session only: a key never manages keys), and the services' key check. */
export async function apiKeyRoutes(app: App, rt: AuthRuntime): Promise<void> {
  const { db } = rt.ctx;
  handle(app, API_KEY_ROUTES.create, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'api-key-create-user', max: 30, windowMs: HOUR, key: (request) => principalOf(request).id }),
  }, async (request, reply) => {
    const { name, expires_in_days } = request.body;
    return reply.status(201).header('cache-control', 'no-store').send(await createApiKey(db, principalOf(request).id, name, expires_in_days));
  });

  handle(app, API_KEY_ROUTES.list, async (request) => ({ keys: await listApiKeys(db, principalOf(request).id) }));

  handle(app, API_KEY_ROUTES.revoke, async (request, reply) => {
    await revokeApiKey(db, principalOf(request).id, request.params.id);
    return reply.status(204).send(null);
  });

  app.post('/internal/api-keys/verify', {
    schema: { body: VerifyApiKeyRequest, response: { 200: ApiKeyIdentity } },
    preHandler: internalGuard(rt.ctx.config.internalToken),
  }, async (request) => {
    const identity = await verifyApiKey(db, request.body.key);
    if (!identity) throw notFound('No live API key matches', 'api_key_unknown');
    return identity;
  });

  // Envoy's ext_authz check for keyed requests (the original method and path follow the prefix).
  // It needs no service token: it only says whether a key is live, as any keyed API call would.
  app.all(`${API_KEY_CHECK_PATH}/*`, async (request, reply) => {
    const key = request.headers[API_KEY_HEADER];
    const identity = typeof key === 'string' && key.length <= 200 ? await verifyApiKey(db, key) : null;
    if (!identity) throw unauthorized('This API key is invalid, revoked or expired', 'invalid_api_key');
    return reply.status(200).send();
  });
}

import type { App } from '@leadforge/kit/service';
import { internalGuard, notFound, principalOf, rateLimited, unauthorized } from '@leadforge/kit/http';
import {
  API_KEY_HEADER, ApiKeyId, ApiKeyIdentity, ApiKeyList, CreateApiKeyRequest, CreatedApiKey, ErrorBody, VerifyApiKeyRequest,
} from '@leadforge/contracts';
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from '../domain/apiKeys.ts';
import type { AuthRuntime } from '../runtime.ts';

const HOUR = 3600_000;
/** Where the edge (Envoy's ext_authz) checks a key; gateway/src/envoyConfig.ts names the same path. */
export const API_KEY_CHECK_PATH = '/internal/api-keys/check';

/** A user's API keys (by session only: a key never manages keys), and the services' key check. */
export async function apiKeyRoutes(app: App, rt: AuthRuntime): Promise<void> {
  const { db } = rt.ctx;
  const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

  app.post('/api/api-keys', {
    schema: { body: CreateApiKeyRequest, response: { 201: CreatedApiKey, ...errors } },
    preHandler: [
      app.requireUser,
      rateLimited(rt.ctx.counters, { name: 'api-key-create-user', max: 30, windowMs: HOUR, key: (request) => principalOf(request).id }),
    ],
  }, async (request, reply) => {
    const { name, expires_in_days } = request.body as CreateApiKeyRequest;
    return reply.status(201).header('cache-control', 'no-store').send(await createApiKey(db, principalOf(request).id, name, expires_in_days));
  });

  app.get('/api/api-keys', {
    schema: { response: { 200: ApiKeyList, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => ({ keys: await listApiKeys(db, principalOf(request).id) }));

  app.delete('/api/api-keys/:id', {
    schema: { params: ApiKeyId, response: { 204: { type: 'null' }, ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    await revokeApiKey(db, principalOf(request).id, (request.params as { id: string }).id);
    return reply.status(204).send();
  });

  app.post('/internal/api-keys/verify', {
    schema: { body: VerifyApiKeyRequest, response: { 200: ApiKeyIdentity } },
    preHandler: internalGuard(rt.ctx.config.internalToken),
  }, async (request) => {
    const identity = await verifyApiKey(db, (request.body as { key: string }).key);
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

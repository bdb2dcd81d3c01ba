import type { FastifyRequest } from 'fastify';
import { API_KEY_HEADER, matchRoute, type ApiKeyIdentity } from '@leadforge/contracts';
import { unauthorized } from './errors.ts';
import { rateLimited, type CounterStore } from './rateLimits.ts';

export interface ApiKeyOptions {
  /** The owner's (auth's) answer to "whose live key is this?"; `null` for an unknown, revoked or expired key. */
  verify: (key: string) => Promise<ApiKeyIdentity | null>;
  /** Counts keyed requests per key (the services do; the edge only checks the key). */
  limit?: { store: CounterStore; perMinute: number };
}

/** The key a request presents, when it presents one instead of a session token. */
export function presentedApiKey(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return undefined;
  const key = request.headers[API_KEY_HEADER];
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}

/** Whether the route table lets machines call this route with a key (`apiKey` on its entry). */
export function apiKeyAllowed(request: FastifyRequest): boolean {
  return matchRoute(request.method, request.url.split('?')[0])?.apiKey === true;
}

/**
 * Checks a key with its owner on every request, never from a cache: a revoked or expired key is
 * refused at once. Then counts the request against the key's own rate limit.
 */
export function apiKeyAuthenticator(options: ApiKeyOptions) {
  const limit = options.limit && rateLimited(options.limit.store, {
    name: 'api-key',
    max: options.limit.perMinute,
    windowMs: 60_000,
    key: (request) => request.apiKeyId,
  });
  return async (request: FastifyRequest, key: string): Promise<ApiKeyIdentity> => {
    if (!apiKeyAllowed(request)) {
      throw unauthorized('API keys are not accepted on this route; it needs a signed-in session', 'api_key_not_accepted');
    }
    const identity = key.length <= 200 ? await options.verify(key) : null;
    if (!identity) throw unauthorized('This API key is invalid, revoked or expired', 'invalid_api_key');
    request.apiKeyId = identity.key_id;
    await limit?.(request);
    return identity;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key a request authenticated with, when it used one. */
    apiKeyId?: string;
  }
}

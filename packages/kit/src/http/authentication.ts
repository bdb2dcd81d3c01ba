import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import buildGetJwks from 'get-jwks';
import type { AccessClaims, Role, UserStatus } from '@leadforge/contracts';
import { forbidden, serviceUnavailable, unauthorized } from './errors.ts';
import { apiKeyAuthenticator, presentedApiKey, type ApiKeyOptions } from './apiKeyAuthentication.ts';

/** Access tokens: `iss` and `aud` claims, issued by auth and checked by every service and the edge. */
export const ACCESS_TOKEN_ISSUER = 'leadforge-auth';
export const ACCESS_TOKEN_AUDIENCE = 'leadforge-api';

export interface Principal {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export interface UserStanding {
  role: Role;
  status: UserStatus;
  /** Bumped by auth when the password changes; tokens issued under an older generation are refused. */
  session_generation?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest) => Promise<void>;
    requireAdmin: (request: FastifyRequest) => Promise<void>;
  }
}

export interface AuthenticationOptions {
  /** Base URL serving `/.well-known/jwks.json` (the auth service). */
  jwksBaseUrl?: string;
  /** Resolves a verification key by kid; overrides JWKS (the auth service verifies with its own keys). */
  resolveKey?: (kid: string | undefined) => Promise<string>;
  /** The owner's current view of a user; `null` when the user does not exist. */
  lookupStanding: (userId: string, claims: AccessClaims) => Promise<UserStanding | null>;
  /** Accepts `X-API-Key` on the routes the route table marks `apiKey`; without it keys are refused. */
  apiKeys?: ApiKeyOptions;
}

/**
 * Verifies access tokens on every request that asks for it. A token outlives what it says, so a
 * user's role, status and session generation are re-read from their owner on every request: once
 * auth has answered a deletion, a deactivation, a demotion or a password change, no later request
 * gets through on an older token (bench/results/userStanding.md has what the read costs).
 */
export async function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): Promise<void> {
  const getJwks = options.jwksBaseUrl ? buildGetJwks({ max: 20, ttl: 10 * 60 * 1000 }) : undefined;
  const resolveKey = options.resolveKey ?? (async (kid: string | undefined) => {
    if (!getJwks || !options.jwksBaseUrl) throw new Error('no JWKS configured');
    return getJwks.getPublicKey({ domain: options.jwksBaseUrl, alg: 'RS256', kid: kid ?? '' });
  });

  await app.register(fastifyJwt, {
    decode: { complete: true },
    secret: (async (_request: FastifyRequest, token: { header: { kid?: string } }) => resolveKey(token.header.kid)) as never,
    // Verified tokens are cached (until they expire): a session's requests repeat the same token.
    // A token must say who issued it, for whom, and until when: one without `exp` would never expire.
    verify: {
      algorithms: ['RS256'],
      cache: 10_000,
      allowedIss: ACCESS_TOKEN_ISSUER,
      allowedAud: ACCESS_TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iss', 'aud'],
    } as never,
  });

  // The last answer per user: used only while auth does not answer, so an account seen deleted stays out.
  const lastSeen = new Map<string, UserStanding | null>();

  async function standingOf(userId: string, claims: AccessClaims): Promise<UserStanding | null> {
    const standing = await options.lookupStanding(userId, claims);
    lastSeen.delete(userId);
    lastSeen.set(userId, standing);
    if (lastSeen.size > 10_000) lastSeen.delete(lastSeen.keys().next().value as string);
    return standing;
  }

  const byApiKey = options.apiKeys && apiKeyAuthenticator(options.apiKeys);

  async function authenticate(request: FastifyRequest, admin: boolean): Promise<Principal> {
    const key = presentedApiKey(request);
    if (key) {
      if (admin || !byApiKey) throw unauthorized('API keys are not accepted on this route; it needs a signed-in session', 'api_key_not_accepted');
      const identity = await byApiKey(request, key);
      const principal: Principal = { id: identity.user_id, email: identity.email, name: identity.name, role: identity.role };
      request.principal = principal;
      return principal;
    }
    if (!request.headers.authorization) throw unauthorized('Authentication required', 'no_token');
    let claims: AccessClaims;
    try {
      claims = await request.jwtVerify<AccessClaims>();
    } catch {
      throw unauthorized('Your session is invalid or has expired; please log in again', 'invalid_token');
    }
    let standing: UserStanding | null;
    try {
      standing = await standingOf(claims.sub, claims);
    } catch (err) {
      // Admin actions fail closed; a user route may trust a valid token while auth is briefly away,
      // unless auth's last answer about the user already refused it.
      if (admin) throw serviceUnavailable('Could not confirm your permissions; try again shortly');
      request.log.warn({ err }, 'user standing lookup failed; trusting the token');
      standing = lastSeen.has(claims.sub) ? lastSeen.get(claims.sub)! : { role: claims.role, status: 'active' };
    }
    if (!standing || standing.status !== 'active') throw unauthorized('This account is not active', 'account_inactive');
    if ((claims.gen ?? 0) < (standing.session_generation ?? 0)) {
      throw unauthorized('Your session has ended because your password was changed; please log in again', 'session_ended');
    }
    const principal: Principal = { id: claims.sub, email: claims.email, name: claims.name, role: standing.role };
    request.principal = principal;
    return principal;
  }

  app.decorate('requireUser', async (request: FastifyRequest) => {
    await authenticate(request, false);
  });
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    const principal = await authenticate(request, true);
    if (principal.role !== 'admin') throw forbidden('Admin privileges required', 'admin_only');
  });
}

/** The signed-in principal of a request that passed requireUser/requireAdmin. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

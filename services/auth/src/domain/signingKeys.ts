import crypto from 'node:crypto';
import { createSigner } from 'fast-jwt';
import type { Db } from '@leadforge/kit/db';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@leadforge/kit/http';
import type { AccessClaims } from '@leadforge/contracts';

export interface SigningKey {
  kid: string;
  privatePem: string;
  publicPem: string;
  publicJwk: crypto.JsonWebKey & { kid: string; alg: string; use: string };
}

function toSigningKey(kid: string, privatePem: string): SigningKey {
  const publicKey = crypto.createPublicKey(privatePem);
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid,
    privatePem,
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' },
  };
}

function thumbprint(privatePem: string): string {
  const jwk = crypto.createPublicKey(privatePem).export({ format: 'jwk' });
  return crypto.createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url').slice(0, 16);
}

/**
 * The signing key: from `JWT_PRIVATE_KEY` (a Kubernetes Secret) when given, otherwise generated once
 * and kept in auth's own database, so local restarts keep sessions valid.
 */
export async function loadSigningKey(db: Db, privatePemFromEnv?: string): Promise<SigningKey> {
  if (privatePemFromEnv) return toSigningKey(thumbprint(privatePemFromEnv), privatePemFromEnv);
  const existing = await db('signing_keys').orderBy('created_at', 'desc').first();
  if (existing) return toSigningKey(existing.kid, existing.private_pem);
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const key = toSigningKey(thumbprint(privatePem), privatePem);
  await db('signing_keys').insert({ kid: key.kid, private_pem: privatePem, public_jwk: key.publicJwk }).onConflict('kid').ignore();
  // Two replicas starting at once: whichever key landed first wins for both.
  const first = await db('signing_keys').orderBy('created_at', 'asc').first();
  return toSigningKey(first.kid, first.private_pem);
}

export function tokenSigner(key: SigningKey, ttlSeconds: number) {
  const sign = createSigner({ key: key.privatePem, algorithm: 'RS256', kid: key.kid, expiresIn: ttlSeconds * 1000, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE });
  return (claims: AccessClaims): string => sign({ ...claims });
}

import { describe, expect, it } from 'vitest';
import { createVerifier } from 'fast-jwt';
import { createTestDatabase } from '@leadforge/testing';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@leadforge/kit/http';
import { loadSigningKey, tokenSigner } from '../src/domain/signingKeys.ts';

const migrations = new URL('../src/db/migrations', import.meta.url).pathname;

describe('access tokens', () => {
  it('are RS256 with a key id, verify with the published key, and keep the same key across restarts', async () => {
    const t = await createTestDatabase('auth', migrations, 'pglite');
    try {
      const key = await loadSigningKey(t.db);
      const token = tokenSigner(key, 60)({ sub: 'u1', email: 'a@b.co', name: 'A', role: 'user' });
      const verify = createVerifier({ key: key.publicPem, algorithms: ['RS256'], complete: true });
      const decoded = verify(token) as { header: { kid: string; alg: string }; payload: { sub: string; exp: number; iat: number; iss: string; aud: string } };
      expect(decoded.header.alg).toBe('RS256');
      expect(decoded.header.kid).toBe(key.kid);
      expect(decoded.payload.sub).toBe('u1');
      expect(decoded.payload.exp - decoded.payload.iat).toBe(60);
      expect(decoded.payload).toMatchObject({ iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE });
      expect(key.publicJwk).toMatchObject({ kty: 'RSA', kid: key.kid, alg: 'RS256', use: 'sig' });
      expect((await loadSigningKey(t.db)).kid).toBe(key.kid);
    } finally {
      await t.close();
    }
  });

  it('refuses a token signed by another key', async () => {
    const a = await createTestDatabase('auth', migrations, 'pglite');
    const b = await createTestDatabase('auth', migrations, 'pglite');
    try {
      const token = tokenSigner(await loadSigningKey(a.db), 60)({ sub: 'u1', email: 'a@b.co', name: 'A', role: 'admin' });
      const verify = createVerifier({ key: (await loadSigningKey(b.db)).publicPem, algorithms: ['RS256'] });
      expect(() => verify(token)).toThrow();
    } finally {
      await a.close();
      await b.close();
    }
  });
});

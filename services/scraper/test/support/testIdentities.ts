import crypto from 'node:crypto';
import type { ServiceDefinition } from '@leadforge/kit/service';
import type { Role } from '@leadforge/contracts';

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * Signs RS256 access tokens the way the auth service does, with a key of this test, and answers
 * the standing look-ups a service makes: the scraper's admin checks run for real without auth.
 */
export function testIdentities() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const standings = new Map<string, { role: Role; status: 'active' | 'inactive' | 'deleted' }>();

  function tokenFor(id: string, role: Role, status: 'active' | 'inactive' = 'active'): string {
    standings.set(id, { role, status });
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'test' }));
    const payload = b64url(JSON.stringify({ sub: id, email: `${id}@example.com`, name: id, role, iat: now, exp: now + 3600, iss: 'leadforge-auth', aud: 'leadforge-api' }));
    const signature = crypto.sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${b64url(signature)}`;
  }

  /** The service with token checks against this test's key and standings. */
  function authenticated<T extends ServiceDefinition>(def: T): T {
    return {
      ...def,
      authentication: () => ({
        resolveKey: async () => publicPem,
        lookupStanding: async (userId: string) => standings.get(userId) ?? null,
      }),
    };
  }

  return { tokenFor, authenticated, standings };
}

import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, type UserStanding } from '../src/http/authentication.ts';
import { serviceUnavailable } from '../src/http/errors.ts';
import { startServiceForTest } from '@leadforge/testing';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';

const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
function token(sub: string, gen = 0): string {
  const claims = { sub, email: `${sub}@example.com`, name: sub, role: 'user', gen, iat: now, exp: now + 600, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE };
  const unsigned = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k' })}.${b64(claims)}`;
  return `${unsigned}.${crypto.sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

// What auth would answer: the test changes it as auth's table would change.
const standings = new Map<string, UserStanding | 'unreachable'>();

const guarded: ServiceDefinition = {
  name: 'contact',
  authentication: () => ({
    resolveKey: async () => publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    lookupStanding: async (userId) => {
      const standing = standings.get(userId);
      if (standing === 'unreachable') throw serviceUnavailable('auth did not answer');
      return standing ?? null;
    },
  }),
  async routes(app) {
    app.get('/mine', { preHandler: app.requireUser }, async () => ({ ok: true }));
  },
};

describe("a user's standing is read fresh on user routes", () => {
  let svc: RunningService;
  beforeAll(async () => { svc = await startServiceForTest(guarded, { kind: 'pglite' }); });
  afterAll(async () => svc?.stop());

  const get = async (bearer: string) => {
    const res = await fetch(`${svc.url}/mine`, { headers: { authorization: `Bearer ${bearer}` } });
    return { status: res.status, body: await res.json() };
  };

  it('refuses the token of an account deleted a moment ago, on the very next request', async () => {
    standings.set('leaving', { role: 'user', status: 'active', session_generation: 0 });
    expect((await get(token('leaving'))).status).toBe(200);
    standings.set('leaving', { role: 'user', status: 'deleted', session_generation: 1 });
    expect(await get(token('leaving'))).toMatchObject({ status: 401, body: { code: 'account_inactive' } });
  });

  it('refuses a session ended by a password change on the very next request', async () => {
    standings.set('changing', { role: 'user', status: 'active', session_generation: 3 });
    expect((await get(token('changing', 3))).status).toBe(200);
    standings.set('changing', { role: 'user', status: 'active', session_generation: 4 });
    expect(await get(token('changing', 3))).toMatchObject({ status: 401, body: { code: 'session_ended' } });
  });

  it('while auth does not answer, trusts a valid token but not one of an account it last saw deleted', async () => {
    standings.set('steady', { role: 'user', status: 'active', session_generation: 0 });
    expect((await get(token('steady'))).status).toBe(200);
    standings.set('steady', 'unreachable');
    expect((await get(token('steady'))).status).toBe(200);

    standings.set('gone', { role: 'user', status: 'deleted', session_generation: 1 });
    expect((await get(token('gone'))).status).toBe(401);
    standings.set('gone', 'unreachable');
    expect(await get(token('gone'))).toMatchObject({ status: 401, body: { code: 'account_inactive' } });
  });
});

import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '../src/http/authentication.ts';
import { startServiceForTest } from '@leadforge/testing';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';

const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function token(claims: Record<string, unknown>): string {
  const unsigned = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k' })}.${b64({ sub: 'u1', email: 'u1@example.com', name: 'U', role: 'user', ...claims })}`;
  return `${unsigned}.${crypto.sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

const guarded: ServiceDefinition = {
  name: 'contact',
  authentication: () => ({
    resolveKey: async () => publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    lookupStanding: async () => ({ role: 'user', status: 'active' }),
  }),
  async routes(app) {
    app.get('/mine', { preHandler: app.requireUser }, async () => ({ ok: true }));
  },
};

describe('access tokens must carry exp, iss and aud, and the right ones', () => {
  let svc: RunningService;
  beforeAll(async () => { svc = await startServiceForTest(guarded, { kind: 'pglite' }); });
  afterAll(async () => svc?.stop());

  const now = Math.floor(Date.now() / 1000);
  const good = { iat: now, exp: now + 600, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE };
  const status = async (claims: Record<string, unknown>) =>
    (await fetch(`${svc.url}/mine`, { headers: { authorization: `Bearer ${token(claims)}` } })).status;

  it('accepts a token auth issues', async () => {
    expect(await status(good)).toBe(200);
  });

  it.each([
    ['without exp', { ...good, exp: undefined }],
    ['expired', { ...good, exp: now - 60 }],
    ['without iss', { ...good, iss: undefined }],
    ['from another issuer', { ...good, iss: 'someone-else' }],
    ['without aud', { ...good, aud: undefined }],
    ['for another audience', { ...good, aud: 'another-api' }],
  ])('refuses a token %s', async (_name, claims) => {
    expect(await status(claims)).toBe(401);
  });
});

import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import type { RunningService } from '@leadforge/kit/service';
import authService from '../src/index.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`auth service on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let svc: RunningService;
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const register = (email: string, password = 'secret123', extra: object = {}) =>
      call('POST', '/api/auth/register', { name: 'Ada Lovelace', email, password, ...extra });

    beforeAll(async () => {
      svc = await startServiceForTest(authService, {
        kind,
        env: { ADMIN_EMAILS: 'Boss@Example.com', AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES: '5', AUTH_REGISTER_PER_IP_PER_HOUR: '100' },
      });
    });
    afterAll(async () => svc?.stop());

    it('registers, logs in and answers /me with the same user', async () => {
      const reg = await register('  Ada@Example.com ');
      expect(reg.status).toBe(201);
      expect(reg.body.user).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', role: 'user', status: 'active', credits: 0 });
      expect(reg.body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

      const login = await call('POST', '/api/auth/login', { email: 'ADA@example.com', password: 'secret123' });
      expect(login.status).toBe(200);
      const me = await call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${login.body.access_token}` });
      expect(me.status).toBe(200);
      expect(me.body).toEqual(reg.body.user);
    });

    it('refuses a duplicate email whatever its case with 409 and a detail', async () => {
      await register('dup@example.com');
      const again = await register('DUP@example.com');
      expect(again.status).toBe(409);
      expect(again.body.detail).toBe('An account with this email already exists');
    });

    it('checks the password rule and the fields on the server too', async () => {
      expect((await register('short@example.com', '12345')).body).toMatchObject({ detail: 'Password must be at least 6 characters long' });
      const missing = await call('POST', '/api/auth/register', { email: 'x@example.com', password: 'secret123' });
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toBe('name is required');
      const badEmail = await register('not-an-email');
      expect(badEmail.status).toBe(400);
      expect(badEmail.body.detail).toBe('Please enter a valid email address');
      const malformed = await call('POST', '/api/auth/register', '{"name": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body.detail).toBe('Request body is not valid JSON');
    });

    it('refuses wrong passwords and unknown emails alike', async () => {
      await register('pw@example.com');
      const wrong = await call('POST', '/api/auth/login', { email: 'pw@example.com', password: 'nope-nope' });
      const unknown = await call('POST', '/api/auth/login', { email: 'nobody@example.com', password: 'nope-nope' });
      expect(wrong).toEqual({ status: 401, body: { detail: 'Invalid email or password', code: 'invalid_credentials' } });
      expect(unknown).toEqual(wrong);
    });

    it('refuses /me without a token, with a forged token, and for a deactivated user', async () => {
      expect((await call('GET', '/api/auth/me')).status).toBe(401);
      expect((await call('GET', '/api/auth/me', undefined, { authorization: 'Bearer a.b.c' })).status).toBe(401);
      const reg = await register('gone@example.com');
      const token = reg.body.access_token;
      const internal = { 'x-internal-token': svc.ctx.config.internalToken };
      const deactivated = await call('POST', `/internal/users/${reg.body.user.id}/status`, { status: 'inactive' }, internal);
      expect(deactivated.body.status).toBe('inactive');
      const me = await call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${token}` });
      expect(me.status).toBe(401);
      const login = await call('POST', '/api/auth/login', { email: 'gone@example.com', password: 'secret123' });
      expect(login.body.detail).toBe('This account is not active; contact support');
    });

    it('does not make an ADMIN_EMAILS address admin at registration: its mailbox is not proven yet', async () => {
      expect((await register('boss@example.com')).body.user.role).toBe('user');
    });

    it('guards internal routes with the service token and refuses self-demotion', async () => {
      const reg = await register('self@example.com');
      const id = reg.body.user.id;
      expect((await call('POST', `/internal/users/${id}/role`, { role: 'admin' })).status).toBe(403);
      const internal = { 'x-internal-token': svc.ctx.config.internalToken };
      expect((await call('POST', `/internal/users/${id}/role`, { role: 'admin' }, internal)).body.role).toBe('admin');
      const self = await call('POST', `/internal/users/${id}/role`, { role: 'user', actor_id: id }, internal);
      expect(self).toMatchObject({ status: 400, body: { detail: 'You cannot demote your own account' } });
      const missing = await call('POST', '/internal/users/00000000-0000-7000-8000-000000000000/role', { role: 'admin' }, internal);
      expect(missing.status).toBe(404);
    });

    it("tells the other services where an active user's emails go, and nothing for an account gone or deactivated", async () => {
      const reg = await register('letters@example.com');
      const id = reg.body.user.id;
      const internal = { 'x-internal-token': svc.ctx.config.internalToken };
      expect((await call('GET', `/internal/users/${id}/mail-recipient`)).status).toBe(403);
      expect(await call('GET', `/internal/users/${id}/mail-recipient`, undefined, internal)).toMatchObject({
        status: 200, body: { user_id: id, email: 'letters@example.com', name: expect.any(String), notify_search_ready: true },
      });
      await call('POST', `/internal/users/${id}/status`, { status: 'inactive' }, internal);
      expect((await call('GET', `/internal/users/${id}/mail-recipient`, undefined, internal)).status).toBe(404);
      expect((await call('GET', '/internal/users/00000000-0000-7000-8000-000000000000/mail-recipient', undefined, internal)).status).toBe(404);
    });

    it('publishes user.registered with referral and promo fields through the outbox', async () => {
      const reg = await register('promo@example.com', 'secret123', { referral_code: 'ABC123', promo_code: 'cbc500', order_id: 'ORDER-1', promo_claim_token: 'claim-secret' });
      const row = await svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'user.registered'").andWhereRaw("envelope->'data'->>'user_id' = ?", [reg.body.user.id]).first();
      expect(row.envelope.data).toMatchObject({ email: 'promo@example.com', referral_code: 'ABC123', promo_code: 'CBC500', order_id: 'ORDER-1' });
      // The claim token stays off the bus: billing compares its hash.
      expect(row.envelope.data.promo_claim_hash).toBe(crypto.createHash('sha256').update('claim-secret').digest('hex'));
      expect(JSON.stringify(row.envelope)).not.toContain('claim-secret');
      expect(row.topic).toBe('auth.user');
    });

    it('rate-limits login attempts per email with 429 and a detail', async () => {
      await register('limited@example.com');
      const statuses: number[] = [];
      let last: { status: number; body: { detail: string } } | undefined;
      for (let i = 0; i < 7; i++) {
        last = await call('POST', '/api/auth/login', { email: 'limited@example.com', password: 'wrong-one' });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      expect(last!.body.detail).toMatch(/^Too many requests; try again in \d+ seconds?$/);
    });

    it('serves its public key as JWKS', async () => {
      const jwks = await call('GET', '/.well-known/jwks.json');
      expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    });
  });
}

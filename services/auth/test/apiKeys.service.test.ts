import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import type { RunningService } from '@leadforge/kit/service';
import authService from '../src/index.ts';
import { createApiKey } from '../src/domain/apiKeys.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`API keys on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let svc: RunningService;
    let token: string;
    let userId: string;

    const call = async (method: string, path: string, options: { body?: unknown; token?: string; key?: string } = {}) => {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: {
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.key ? { 'x-api-key': options.key } : {}),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };
    const createKey = async (body: unknown = { name: 'CRM sync' }) => call('POST', '/api/api-keys', { body, token });

    beforeAll(async () => {
      svc = await startServiceForTest(authService, { kind, env: { API_KEY_REQUESTS_PER_MINUTE: '8' } });
      const registered = await call('POST', '/api/auth/register', { body: { name: 'Ada Lovelace', email: `ada-${kind}@example.com`, password: 'secret123' } });
      token = registered.body.access_token;
      userId = registered.body.user.id;
    });
    afterAll(async () => {
      await svc?.stop();
    });

    it('shows the secret once, lists keys by prefix only, and a key signs in as its user', async () => {
      const created = await createKey({ name: 'CRM sync', expires_in_days: 30 });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      const key: string = created.body.key;
      expect(key).toMatch(/^lf_[A-Za-z0-9_-]{40,}$/);
      expect(created.body.prefix).toBe(key.slice(0, 11));
      expect(new Date(created.body.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);

      const me = await call('GET', '/api/auth/me', { key });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: userId, email: `ada-${kind}@example.com` });

      const listed = await call('GET', '/api/api-keys', { token });
      expect(listed.status).toBe(200);
      const entry = listed.body.keys.find((k: { id: string }) => k.id === created.body.id);
      expect(entry).toMatchObject({ name: 'CRM sync', prefix: created.body.prefix, expires_at: created.body.expires_at });
      expect(entry.last_used_at).not.toBeNull();
      expect(JSON.stringify(listed.body)).not.toContain(key);
      const stored = await svc.ctx.db('api_keys').where({ id: created.body.id }).first();
      expect(JSON.stringify(stored)).not.toContain(key);
    });

    it('refuses a key on routes the table does not open to keys, and key management', async () => {
      const { body: { key } } = await createKey();
      for (const [method, path, body] of [['PATCH', '/api/auth/me', { name: 'x' }], ['GET', '/api/api-keys'], ['POST', '/api/api-keys', { name: 'more' }], ['POST', '/api/auth/password', { current_password: 'a', new_password: 'secret456' }]] as const) {
        const res = await call(method, path, { key, body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body.code).toBe('api_key_not_accepted');
      }
    });

    it('refuses a revoked key at once, an expired key, and an unknown one', async () => {
      const { body: created } = await createKey();
      expect((await call('GET', '/api/auth/me', { key: created.key })).status).toBe(200);
      expect((await call('DELETE', `/api/api-keys/${created.id}`, { token })).status).toBe(204);
      const revoked = await call('GET', '/api/auth/me', { key: created.key });
      expect(revoked).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
      expect((await call('GET', '/api/api-keys', { token })).body.keys.map((k: { id: string }) => k.id)).not.toContain(created.id);
      expect((await call('DELETE', `/api/api-keys/${created.id}`, { token })).status).toBe(404);

      const { body: expiring } = await createKey({ name: 'short', expires_in_days: 1 });
      await svc.ctx.db('api_keys').where({ id: expiring.id }).update({ expires_at: new Date(Date.now() - 1000) });
      expect((await call('GET', '/api/auth/me', { key: expiring.key })).status).toBe(401);
      expect((await call('GET', '/api/auth/me', { key: 'lf_not-a-real-key' })).status).toBe(401);
      expect((await call('GET', '/api/auth/me', { key: 'x'.repeat(5000) })).status).toBe(401);
    });

    it('answers bad input with 4xx and a detail, and keeps other users\' keys out of reach', async () => {
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x', expires_in_days: 0 }, { name: 'x', expires_in_days: 1.5 }, { name: 'x'.repeat(81) }]) {
        const res = await createKey(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(typeof res.body.detail).toBe('string');
      }
      expect((await call('DELETE', '/api/api-keys/not-a-uuid', { token })).status).toBe(404);
      const other = await call('POST', '/api/auth/register', { body: { name: 'Eve', email: `eve-${kind}@example.com`, password: 'secret123' } });
      const { body: mine } = await createKey();
      expect((await call('DELETE', `/api/api-keys/${mine.id}`, { token: other.body.access_token })).status).toBe(404);
      expect((await call('GET', '/api/auth/me', { key: mine.key })).status).toBe(200);
    });

    it('makes no key for an account deleted while the request was on its way', async () => {
      const leaving = await call('POST', '/api/auth/register', { body: { name: 'Leaving', email: `leaving-${kind}@example.com`, password: 'secret123' } });
      expect((await call('DELETE', '/api/account', { body: { password: 'secret123' }, token: leaving.body.access_token })).status).toBe(200);
      // The request passed authentication before the deletion; its write comes after.
      await expect(createApiKey(svc.ctx.db, leaving.body.user.id, 'late key')).rejects.toMatchObject({ statusCode: 401, code: 'account_inactive' });
      expect(await svc.ctx.db('api_keys').where({ user_id: leaving.body.user.id })).toEqual([]);
    });

    it('limits requests per key, not per user', async () => {
      const { body: first } = await createKey({ name: 'busy' });
      const { body: second } = await createKey({ name: 'quiet' });
      const statuses = [];
      for (let i = 0; i < 9; i += 1) statuses.push((await call('GET', '/api/auth/me', { key: first.key })).status);
      expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
      expect(statuses[8]).toBe(429);
      expect((await call('GET', '/api/auth/me', { key: second.key })).status).toBe(200);
      expect((await call('GET', '/api/auth/me', { token })).status).toBe(200);
    });
  });
}

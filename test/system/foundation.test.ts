import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';

describe('the local stack, started as `npm start` starts it', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    stack = await startLocalStack();
    api = apiClient(stack.url);
  }, 180_000);
  afterAll(async () => { await stack?.stop(); });

  it('serves the SPA with security headers and history fallback', async () => {
    const home = await fetch(`${stack.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    const csp = home.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain('https://www.paypal.com');
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    const deep = await fetch(`${stack.url}/dashboard`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
  });

  it('registers, logs in and reads /me through the gateway', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Grace Hopper', email: 'grace@example.com', password: 'cobol1959' });
    expect(reg.status).toBe(201);
    const login = await api('POST', '/api/auth/login', { email: 'grace@example.com', password: 'cobol1959' });
    expect(login.status).toBe(200);
    const me = await api('GET', '/api/auth/me', undefined, bearer(login.body.access_token));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', role: 'user' });
  });

  it('answers bad input with a 4xx and a detail, never a 5xx', async () => {
    const cases: [string, string, unknown, number, string | RegExp][] = [
      ['POST', '/api/auth/register', { email: 'a@example.com', password: 'secret123' }, 400, 'name is required'],
      ['POST', '/api/auth/register', { name: 'A', email: 'a@example.com', password: '123' }, 400, 'Password must be at least 6 characters long'],
      ['POST', '/api/auth/register', '{"name": "A", ', 400, 'Request body is not valid JSON'],
      ['POST', '/api/auth/register', JSON.stringify({ name: 'A', email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) }), 413, 'Request body is too large'],
      ['POST', '/api/auth/login', {}, 400, 'email is required'],
      ['POST', '/api/auth/login', [], 400, /must be object/],
      ['GET', '/api/auth/me', undefined, 401, 'Authentication required'],
      ['GET', '/api/no-such-thing', undefined, 404, 'Not found: GET /api/no-such-thing'],
      ['DELETE', '/api/auth/login', undefined, 405, 'Method DELETE is not allowed on /api/auth/login'],
      ['GET', '/internal/users/x/standing', undefined, 404, 'Not found'],
    ];
    for (const [method, path, body, status, detail] of cases) {
      const res = await api(method, path, body);
      expect({ path, status: res.status }).toEqual({ path, status });
      if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
      else expect(res.body.detail).toMatch(detail);
    }
    await api('POST', '/api/auth/register', { name: 'Dup', email: 'dup@example.com', password: 'secret123' });
    const dup = await api('POST', '/api/auth/register', { name: 'Dup', email: 'Dup@Example.com', password: 'secret123' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe('An account with this email already exists');
  });

  it('checks tokens and roles at the edge', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Plain User', email: 'plain@example.com', password: 'secret123' });
    const asUser = await api('GET', '/api/admin/enhanced-stats', undefined, bearer(reg.body.access_token));
    expect(asUser.status).toBe(403);
    expect((await api('GET', '/api/admin/enhanced-stats')).status).toBe(401);
  });

  it('keeps data across a restart', async () => {
    await api('POST', '/api/auth/register', { name: 'Persistent', email: 'persist@example.com', password: 'secret123' });
    const code = await stack.stop();
    expect(code).toBe(0);
    stack = await startLocalStack({ dataDir: stack.dataDir });
    api = apiClient(stack.url);
    const login = await api('POST', '/api/auth/login', { email: 'persist@example.com', password: 'secret123' });
    expect(login.status).toBe(200);
    expect(login.body.user.name).toBe('Persistent');
  }, 180_000);
});

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@leadforge/contracts';
import { openApiPath } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer, type ApiResponse } from '../support/api.ts';
import { openApiConformance } from '../support/openApiConformance.ts';
import { OPENAPI_FILE } from '@leadforge/contracts/openapi/openApiFile.ts';

describe('the public API through the gateway: API keys, /api/openapi.json and /api/docs', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let problems: ReturnType<typeof openApiConformance>;
  const seen: string[] = [];

  /** Calls the API and checks the answer against the document. */
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const res = await api(method, path, body, headers);
    seen.push(...problems(method, path, res.status, res.headers.get('content-type'), res.body));
    return res;
  };

  beforeAll(async () => {
    stack = await startLocalStack();
    api = apiClient(stack.url);
    problems = openApiConformance(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')));
  }, 240_000);
  afterAll(async () => { await stack?.stop(); });

  it('serves the committed OpenAPI 3.1 document: every public and user route of the table, no admin route', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const doc = res.body;
    expect(doc).toEqual(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')));
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      if (route.access === 'admin') expect(op, `${route.method} ${route.path}`).toBeUndefined();
      else expect(op, `${route.method} ${route.path} is missing from /api/openapi.json`).toBeDefined();
      if (!op) continue;
      const schemes = op.security.map((s: object) => Object.keys(s)[0]);
      expect(schemes, `${route.method} ${route.path}`).toEqual(route.access === 'public' ? [] : route.apiKey ? ['bearerAuth', 'apiKey'] : ['bearerAuth']);
    }
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/admin'))).toBe(false);
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.paths['/api/lead-searches'].post.requestBody.content['application/json'].example).toMatchObject({ industry: 'Dentists' });
  });

  it('serves the interactive reference from its own origin, under the product CSP', async () => {
    const page = await fetch(`${stack.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    // What the page loads (its links back to the app are not assets).
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBe(3);
    expect(html).toContain('<a href="/">← Back to Leadforge</a>');
    for (const asset of assets) {
      expect(asset, 'no CDN: every asset from our own origin').toMatch(/^\/api\/docs\//);
      const res = await fetch(`${stack.url}${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type'), asset).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
    expect(html).not.toMatch(/<script>(?!<)/);
    expect((await call('GET', '/api/docs/nothing.js')).status).toBe(404);
  });

  it('a key created by a session acts as its user on the key routes, never elsewhere, and a revoked key stops at once', async () => {
    const reg = await call('POST', '/api/auth/register', { name: 'Grace Hopper', email: 'grace@example.com', password: 'cobol1959' });
    expect(reg.status).toBe(201);
    const session = bearer(reg.body.access_token);
    const created = await call('POST', '/api/api-keys', { name: 'nightly export', expires_in_days: 7 }, session);
    expect(created.status).toBe(201);
    const keyed = { 'x-api-key': created.body.key as string };

    const me = await call('GET', '/api/auth/me', undefined, keyed);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('grace@example.com');
    expect((await call('GET', '/api/lead-searches', undefined, keyed)).body).toMatchObject({ searches: [], total: 0 });
    const start = await call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 5 }, keyed);
    expect(start.status).toBe(201);
    // The search is the user's: the session sees it, the key can follow and cancel it.
    expect((await call('GET', `/api/lead-searches/${start.body.id}`, undefined, session)).body.industry).toBe('Dentists');
    expect((await call('GET', `/api/lead-searches/${start.body.id}`, undefined, keyed)).status).toBe(200);
    expect([200, 409]).toContain((await call('DELETE', `/api/lead-searches/${start.body.id}`, undefined, keyed)).status);
    expect((await call('GET', '/api/lead-searches/0193a1c0-7d2e-7c4a-9a51-2f4b8d6e1a10', undefined, keyed)).status).toBe(404);
    expect((await call('GET', '/api/lead-searches?page=0', undefined, keyed)).status).toBe(400);

    for (const [method, path] of [['PATCH', '/api/auth/me'], ['GET', '/api/api-keys'], ['GET', '/api/payments/history'], ['GET', '/api/admin/enhanced-stats'], ['GET', '/api/affiliate/stats']]) {
      const res = await api(method, path, method === 'PATCH' ? { name: 'x' } : undefined, keyed);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 401, code: 'api_key_not_accepted' });
    }

    const listed = await call('GET', '/api/api-keys', undefined, session);
    expect(listed.body.keys).toEqual([expect.objectContaining({ id: created.body.id, prefix: created.body.prefix, last_used_at: expect.any(String) })]);
    expect((await call('DELETE', `/api/api-keys/${created.body.id}`, undefined, session)).status).toBe(204);
    const refused = await call('GET', '/api/auth/me', undefined, keyed);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'This API key is invalid, revoked or expired', code: 'invalid_api_key' });
    expect((await call('POST', '/api/api-keys', { name: '' }, session)).status).toBe(400);
  });

  it('every answer above matched its documented status, content type and schema', () => {
    expect(seen).toEqual([]);
  });
});

import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceForTest } from '@leadforge/testing';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';

const guarded: ServiceDefinition = {
  name: 'contact',
  async routes(app) {
    app.post('/things', { schema: { body: Type.Object({ n: Type.Integer() }) }, preHandler: app.requireUser }, async () => ({ ok: true }));
    app.post('/admin-things', { schema: { body: Type.Object({ n: Type.Integer() }) }, preHandler: [app.requireAdmin] }, async () => ({ ok: true }));
  },
};

describe('auth checks come before body validation', () => {
  let svc: RunningService;
  beforeAll(async () => { svc = await startServiceForTest(guarded, { kind: 'pglite' }); });
  afterAll(async () => svc?.stop());

  it('answers an anonymous caller with a bad body 401, not 400', async () => {
    for (const path of ['/things', '/admin-things']) {
      const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":"not a number"}' });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect((await res.json()).detail).toBe('Authentication required');
    }
  });
});

import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declareRoutes } from '@leadforge/contracts';
import { startServiceForTest } from '@leadforge/testing';
import { handle } from '../src/http/declaredRoutes.ts';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';

// Routes registered as every service registers them: against their declaration, its access included.
const THINGS = declareRoutes('contact', {
  user: { method: 'POST', path: '/things', access: 'user', schema: { body: Type.Object({ n: Type.Integer() }) } },
  admin: { method: 'POST', path: '/admin-things', access: 'admin', schema: { body: Type.Object({ n: Type.Integer() }) } },
});
const guarded: ServiceDefinition = {
  name: 'contact',
  async routes(app) {
    handle(app, THINGS.user, async () => ({ ok: true }));
    handle(app, THINGS.admin, async () => ({ ok: true }));
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

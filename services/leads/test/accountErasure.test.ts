import crypto from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, type EventEnvelope } from '@leadforge/contracts';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`a deleted account's writes on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;
    beforeAll(async () => {
      t = await startLeadsUnderTest(kind, { LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' });
    });
    afterAll(async () => t?.stop());

    const erase = async (userId: string) => {
      const envelope: EventEnvelope = {
        id: uuidv7(), type: 'account.deleted', version: 1, occurred_at: new Date().toISOString(), key: userId,
        data: { user_id: userId, email_sha256: crypto.createHash('sha256').update(`${userId}@example.com`).digest('hex'), deleted_at: new Date().toISOString() },
      };
      await t.bus.publish([{ topic: TOPICS.authUser, key: userId, envelope }]);
      await expect.poll(async () => t.svc.ctx.db('kit_handled_events').where({ event_id: envelope.id }).first(), { timeout: 20_000 }).toBeTruthy();
    };

    it('refuses a search and a webhook of a request that was let in before the erasure ran, and stores nothing', async () => {
      const userId = `erased-${kind}`;
      t.billing.setBalance(userId, 30);
      // The stand-in auth still calls the user active: the requests below play those already past
      // authentication when the account was deleted.
      const token = t.auth.tokenFor(userId);
      const before = await t.call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 5 }, token);
      expect(before.status).toBe(201);
      await erase(userId);
      expect(await t.svc.ctx.db('lead_searches').where({ user_id: userId })).toEqual([]);
      const heldAfterErasure = t.billing.balanceOf(userId);

      const search = await t.call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 5 }, token);
      expect(search).toMatchObject({ status: 401, body: { code: 'account_inactive', detail: 'This account is not active' } });
      const generated = await t.call('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Springfield', quantity: 5 }, token);
      expect(generated).toMatchObject({ status: 401, body: { code: 'account_inactive' } });
      const webhook = await t.call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['lead_search.completed'] }, token);
      expect(webhook).toMatchObject({ status: 401, body: { code: 'account_inactive' } });

      expect(await t.svc.ctx.db('lead_searches').where({ user_id: userId })).toEqual([]);
      expect(await t.svc.ctx.db('webhook_endpoints').where({ user_id: userId })).toEqual([]);
      // Nothing more was held against the deleted balance.
      expect(t.billing.balanceOf(userId)).toBe(heldAfterErasure);

      // Another user is untouched.
      t.billing.setBalance(`kept-${kind}`, 10);
      const other = await t.call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['lead_search.completed'] }, t.auth.tokenFor(`kept-${kind}`));
      expect(other.status).toBe(201);
    });

    it('gives back the credits of a search whose account was erased while billing held them, and keeps no search', async () => {
      const userId = `erased-while-holding-${kind}`;
      t.billing.setBalance(userId, 30);
      t.billing.beforeHold = async () => {
        t.billing.beforeHold = null;
        await erase(userId);
      };
      const search = await t.call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 5 }, t.auth.tokenFor(userId));
      expect(search).toMatchObject({ status: 401, body: { code: 'account_inactive' } });
      expect(t.billing.balanceOf(userId)).toBe(30);
      expect(t.billing.reservations().filter((r) => r.user_id === userId).map((r) => r.status)).toEqual(['released']);
      expect(await t.svc.ctx.db('lead_searches').where({ user_id: userId })).toEqual([]);
    });
  });
}

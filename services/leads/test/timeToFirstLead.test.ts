import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, type EventEnvelope } from '@leadforge/contracts';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { engineLead } from './support/engineStandIn.ts';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const HISTOGRAM = 'leadforge_leads_time_to_first_lead_seconds';

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`time to first lead on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;
    let userSeq = 0;

    beforeAll(async () => {
      t = await startLeadsUnderTest(kind);
    });
    afterAll(async () => t?.stop());

    /** The histogram's count and sum as /metrics shows them (the registry is the process's: compare before and after). */
    const observed = async () => {
      const text = await (await fetch(`${t.svc.url}/metrics`)).text();
      const value = (suffix: string) => Number(text.match(new RegExp(`^${HISTOGRAM}_${suffix} (\\S+)$`, 'm'))?.[1]);
      return { count: value('count'), sum: value('sum') };
    };
    const startSearch = async () => {
      const id = `user-${kind}-${++userSeq}`;
      t.billing.setBalance(id, 100);
      const res = await t.call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 10 }, t.auth.tokenFor(id));
      expect(res.status).toBe(201);
      await t.engine.waitForRequest(res.body.id);
      return { searchId: res.body.id as string, token: t.auth.tokenFor(id) };
    };
    const leadsCount = async (searchId: string, token: string) => (await t.call('GET', `/api/lead-searches/${searchId}`, undefined, token)).body.leads_count;

    it('observes one value per search, from its start to its first stored lead, however often the results arrive', async () => {
      const before = await observed();
      const startedAt = Date.now();
      const { searchId, token } = await startSearch();
      // A search that started a minute ago, rather than a wait: the value observed must span it.
      await t.svc.ctx.db('lead_searches').where({ id: searchId }).update({ created_at: t.svc.ctx.db.raw("created_at - interval '1 minute'") });

      const envelope: EventEnvelope = {
        id: uuidv7(), type: 'scrape.leads_found', version: 1, occurred_at: new Date().toISOString(), key: searchId,
        data: { search_id: searchId, leads: [engineLead(1), engineLead(2)] },
      };
      const deliver = () => t.bus.publish([{ topic: TOPICS.scraperResult, key: searchId, envelope }]);
      await deliver();
      await expect.poll(observed).toMatchObject({ count: before.count + 1 });
      const elapsedSeconds = (Date.now() - startedAt) / 1000;

      // The same event redelivered, the same leads in a new event, then more leads behind one already stored.
      await deliver();
      await t.engine.leads(searchId, [engineLead(1), engineLead(2)]);
      await t.engine.leads(searchId, [engineLead(1), engineLead(3)]);
      await expect.poll(() => leadsCount(searchId, token)).toBe(3);

      const after = await observed();
      expect(after.count).toBe(before.count + 1);
      const seconds = after.sum - before.sum;
      expect(seconds).toBeGreaterThanOrEqual(60);
      expect(seconds).toBeLessThanOrEqual(60 + elapsedSeconds);
    });

    it('observes each search once: two searches, two observations', async () => {
      const before = await observed();
      const first = await startSearch();
      const second = await startSearch();
      for (const { searchId } of [first, second, first, second]) await t.engine.leads(searchId, [engineLead(7)]);
      await expect.poll(() => leadsCount(second.searchId, second.token)).toBe(1);
      await expect.poll(observed).toMatchObject({ count: before.count + 2 });
    });
  });
}

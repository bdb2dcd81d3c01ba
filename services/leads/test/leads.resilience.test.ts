import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFreshPostgres, postgresConfigured, type FreshPostgres, type TestDatabaseKind, waitFor } from '@leadforge/testing';
import type { RunningService } from '@leadforge/kit/service';
import { engineLead } from './support/engineStandIn.ts';
import { readFeed } from './support/feedReader.ts';
import { caller, startLeads, startSurroundings, type Surroundings } from './support/leadsUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
// Short clocks so deadlines pass within a test.
const FAST = { LEADS_SEARCH_DEADLINE_SECONDS: '2', LEADS_DEADLINE_GRACE_MS: '300', LEADS_SWEEP_MS: '100', LEADS_STUCK_RESERVATION_MS: '1000', LEADS_MAX_RUNNING_PER_USER: '5' };

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`leads service resilience on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let around: Surroundings;
    let svc: RunningService;
    let database: { env: NodeJS.ProcessEnv; drop(): Promise<void> };
    let userSeq = 0;
    const call = caller(() => svc.url);

    // A database that outlives one start of the service, so a restart finds what was there.
    async function lastingDatabase() {
      if (kind === 'postgres') {
        const fresh: FreshPostgres = await createFreshPostgres('leads_restart');
        return { env: { DATABASE_URL: fresh.url }, drop: () => fresh.drop() };
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leads-restart-'));
      return { env: { DATA_DIR: dir }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    }

    beforeAll(async () => {
      around = await startSurroundings();
      database = await lastingDatabase();
      svc = await startLeads('pglite', around, { ...FAST, ...database.env });
    });
    afterEach(() => {
      around.billing.down = false;
      around.billing.loseAnswers = 0;
    });
    afterAll(async () => {
      await svc?.stop();
      await around?.close();
      await database?.drop();
    });

    const newUser = (credits: number) => {
      const id = `user-r-${kind}-${++userSeq}`;
      around.billing.setBalance(id, credits);
      return { id, token: around.auth.tokenFor(id) };
    };
    const start = async (token: string, quantity: number) => {
      const res = await call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity }, token);
      expect(res.status).toBe(201);
      await around.engine.waitForRequest(res.body.id);
      return res.body.id as string;
    };
    const completedEvents = async (searchId: string) =>
      svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'search.completed'").andWhere({ key: searchId });

    it('ends a search the engine went quiet on at its deadline, charging only the leads it has', async () => {
      const user = newUser(20);
      const id = await start(user.token, 10);
      await around.engine.leads(id, [engineLead(1), engineLead(2)]);
      const { messages } = await readFeed(`${svc.url}/api/lead-searches/${id}/events`, { authorization: `Bearer ${user.token}` }, { until: (m) => m.event === 'finished' });
      const finished = messages.at(-1)!;
      expect(finished.data).toMatchObject({ status: 'completed', reason: 'deadline', stats: { total_found: 2, credits_used: 2, remaining_credits: 18 } });
      expect(around.billing.balanceOf(user.id)).toBe(18);
    });

    it('fails a search that found nothing by its deadline, and charges nothing', async () => {
      const user = newUser(10);
      const id = await start(user.token, 10);
      expect(around.billing.balanceOf(user.id)).toBe(0);
      await expect.poll(async () => (await call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body.status, { timeout: 5000 }).toBe('failed');
      const search = (await call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body;
      expect(search).toMatchObject({ reason: 'deadline', credits_used: 0, error: 'The search ran out of time before any lead was found. Nothing was charged; please try again.' });
      await expect.poll(() => around.billing.balanceOf(user.id)).toBe(10);
    });

    it('finishes the feed when billing is down at the end, and settles exactly once when it is back', async () => {
      const user = newUser(10);
      const id = await start(user.token, 5);
      await around.engine.leads(id, [engineLead(11), engineLead(12), engineLead(13)]);
      around.billing.down = true;
      await around.engine.finish(id, 'done');
      const { messages } = await readFeed(`${svc.url}/api/lead-searches/${id}/events`, { authorization: `Bearer ${user.token}` }, { until: (m) => m.event === 'finished' });
      // The expected figures: 3 charged, 2 of the 5 held given back.
      expect(messages.at(-1)!.data).toMatchObject({ status: 'completed', stats: { credits_used: 3, remaining_credits: 7 } });
      expect(around.billing.reservations().find((r) => r.user_id === user.id)!.status).toBe('held');
      expect(await completedEvents(id)).toHaveLength(0);

      around.billing.down = false;
      await expect.poll(() => around.billing.reservations().find((r) => r.user_id === user.id)!.status, { timeout: 10_000 }).toBe('settled');
      expect(around.billing.balanceOf(user.id)).toBe(7);
      await expect.poll(async () => (await completedEvents(id)).length).toBe(1);
      expect((await call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body.credits_used).toBe(3);
    });

    it('asks billing again, with the same key, when the answer to a hold is lost: the search starts, holding once', async () => {
      const user = newUser(10);
      around.billing.loseAnswers = 1;
      const res = await call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 4 }, user.token);
      expect(res.status).toBe(201);
      expect(around.billing.reservations().filter((r) => r.user_id === user.id).map((r) => r.status)).toEqual(['held']);
      expect(around.billing.balanceOf(user.id)).toBe(6);
    });

    it('answers 503 when billing holds the credits but every answer is lost, and gives the hold back', async () => {
      const user = newUser(10);
      // The hold's three attempts.
      around.billing.loseAnswers = 3;
      const res = await call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 4 }, user.token);
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe('Your credits could not be reserved right now, so the search did not start and nothing was charged. Please try again in a moment.');
      expect(around.billing.reservations().filter((r) => r.user_id === user.id).map((r) => r.status)).toEqual(['released']);
      expect(around.billing.balanceOf(user.id)).toBe(10);
      expect((await call('GET', '/api/lead-searches', undefined, user.token)).body.total).toBe(0);
    });

    it('cleans up, once billing is back, a search whose hold billing could not confirm at all', async () => {
      const user = newUser(10);
      // The hold's three attempts, then the release's three.
      around.billing.loseAnswers = 6;
      const res = await call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 4 }, user.token);
      expect(res.status).toBe(503);
      expect(around.billing.balanceOf(user.id)).toBe(6);
      await expect.poll(() => around.billing.balanceOf(user.id), { timeout: 10_000 }).toBe(10);
      expect(around.billing.reservations().filter((r) => r.user_id === user.id).map((r) => r.status)).toEqual(['released']);
      await expect.poll(async () => Number((await svc.ctx.db('lead_searches').where({ user_id: user.id }).count({ n: '*' }))[0].n)).toBe(0);
    });

    it('after a restart, running searches resume (events sent meanwhile included) and ended ones are settled', async () => {
      const resumed = newUser(20);
      const unsettled = newUser(20);
      const overdue = newUser(20);
      const resumedId = await start(resumed.token, 5);
      const unsettledId = await start(unsettled.token, 5);
      const overdueId = await start(overdue.token, 5);
      await around.engine.leads(resumedId, [engineLead(21)]);
      await around.engine.leads(overdueId, [engineLead(31)]);
      around.billing.down = true;
      await around.engine.leads(unsettledId, [engineLead(41), engineLead(42)]);
      await around.engine.finish(unsettledId, 'done');

      const { deadline_at: overdueAt } = await svc.ctx.db('lead_searches').where({ id: overdueId }).first('deadline_at');
      await svc.stop();
      // While the service is down the engine goes on (the bus keeps what it publishes), and the overdue
      // search's deadline, with its grace, passes.
      await around.engine.leads(resumedId, [engineLead(22), engineLead(23)]).then(() => around.engine.finish(resumedId, 'done'));
      const overdueSince = new Date(overdueAt).getTime() + Number(FAST.LEADS_DEADLINE_GRACE_MS);
      await waitFor(() => Date.now() > overdueSince, { what: 'the overdue search\'s deadline to pass' });
      around.billing.down = false;
      svc = await startLeads('pglite', around, { ...FAST, ...database.env });

      const status = async (token: string, id: string) => (await call('GET', `/api/lead-searches/${id}`, undefined, token)).body;
      await expect.poll(async () => (await status(resumed.token, resumedId)).leads_count, { timeout: 10_000 }).toBe(3);
      await expect.poll(() => around.billing.balanceOf(resumed.id), { timeout: 10_000 }).toBe(17);
      await expect.poll(() => around.billing.balanceOf(unsettled.id), { timeout: 10_000 }).toBe(18);
      await expect.poll(async () => (await status(overdue.token, overdueId)).status, { timeout: 10_000 }).toBe('completed');
      await expect.poll(() => around.billing.balanceOf(overdue.id), { timeout: 10_000 }).toBe(19);
      expect(around.billing.reservations().filter((r) => [resumed.id, unsettled.id, overdue.id].includes(r.user_id)).map((r) => r.status)).toEqual(['settled', 'settled', 'settled']);
    });
  });
}

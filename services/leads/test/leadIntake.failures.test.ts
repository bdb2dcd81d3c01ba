import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeadLetters } from '@leadforge/kit/events';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { INTAKE_FAILED_ERROR } from '../src/domain/searchOutcome.ts';
import { engineLead } from './support/engineStandIn.ts';
import { confirmedEmailOptOut } from './support/optOutRequests.ts';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
let seq = 0;

for (const kind of kinds) {
  const skipped = kind === 'postgres' && !postgresConfigured;
  describe.skipIf(skipped)(`taking the engine's leads in, leads service on ${kind}${skipped ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;

    beforeAll(async () => {
      t = await startLeadsUnderTest(kind, { LEADS_MAX_RUNNING_PER_USER: '5', LEADS_INTAKE_RETRY_MS: '300' });
      // Stands in for leads that can never be stored, whatever the cause: the insert of this company fails.
      await t.svc.ctx.db.raw(`
        CREATE FUNCTION refuse_unstorable() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.company = 'Unstorable Dental' THEN RAISE EXCEPTION 'this lead cannot be stored'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_unstorable BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION refuse_unstorable();`);
    });
    afterAll(async () => t?.stop());

    const newUser = (credits: number) => {
      const id = `user-intake-${kind}-${++seq}`;
      t.billing.setBalance(id, credits);
      return { id, token: t.auth.tokenFor(id) };
    };
    const ended = async (id: string, token: string) => {
      await expect.poll(async () => (await t.svc.ctx.db('lead_searches').where({ id }).first()).credits, { timeout: 10_000 }).toMatch(/^(settled|released)$/);
      return (await t.call('GET', `/api/lead-searches/${id}`, undefined, token)).body;
    };
    const start = async (token: string, body: object) => {
      const started = await t.call('POST', '/api/lead-searches', body, token);
      expect(started.status).toBe(201);
      await t.engine.waitForRequest(started.body.id);
      return started.body.id as string;
    };

    it('stores the leads of a later search of the area once a lead\'s email, with its verdict, provenance and fetch time, was opted out', async () => {
      const n = ++seq;
      const practice = engineLead(1, {
        key: `osm:node/practice-${kind}-${n}`,
        email: `mail@some-practice-${n}.de`,
        email_deliverability: 'deliverable',
        email_type: 'role',
        email_source: `https://some-practice-${n}.de/impressum`,
        email_fetched_at: '2026-11-20T10:00:00.000Z',
        phone: `+49301234${String(n).padStart(4, '0')}`,
        phone_type: 'fixed_line',
        phone_display: '+49 30 1234',
        phone_source: `https://some-practice-${n}.de/kontakt`,
        phone_fetched_at: '2026-11-20T10:00:01.000Z',
      });
      const other = engineLead(2, { key: `osm:node/other-${kind}-${n}`, email: `hi@other-${n}.example` });
      const body = { industry: 'Dentists', location: `Lindenau ${n}`, quantity: 2 };

      const a = newUser(10);
      const first = await start(a.token, body);
      await t.engine.leads(first, [practice, other]);
      await t.engine.finish(first, 'done');
      expect((await ended(first, a.token)).leads[0]).toMatchObject({ email: practice.email, email_fetched_at: practice.email_fetched_at });

      // Its owner confirms the email's opt-out by the mailed link; the practice keeps its phone, so it is still a lead.
      await confirmedEmailOptOut(t, practice.email);

      const b = newUser(10);
      const second = await start(b.token, body);
      await t.engine.leads(second, [practice, other]);
      await t.engine.finish(second, 'done');
      const search = await ended(second, b.token);
      expect(search).toMatchObject({ status: 'completed', leads_count: 2, credits_used: 2, stats: { with_email: 1, with_phone: 2 } });
      // The opted-out email is gone with everything that described it.
      const [blanked] = search.leads;
      expect(blanked).toMatchObject({ company: practice.company, email: '', phone: practice.phone, phone_source: practice.phone_source });
      for (const field of ['email_deliverability', 'email_type', 'email_source', 'email_fetched_at']) {
        expect(blanked).not.toHaveProperty(field);
      }
      expect(t.billing.balanceOf(b.id)).toBe(8);
      expect(await listDeadLetters(t.svc.ctx.db, { group: 'leads.scrape-results' })).toEqual([]);
    });

    it('fails a search whose leads cannot be stored within LEADS_INTAKE_RETRY_MS, not at its deadline: the spec\'s kind of error, nothing charged, the engine told to stop', async () => {
      const user = newUser(20);
      const body = { industry: 'Dentists', location: `Unstorable ${kind}`, quantity: 5 };
      const generating = t.call('POST', '/api/generate-leads', body, user.token);
      await expect.poll(() => t.svc.ctx.db('lead_searches').where({ user_id: user.id, status: 'running' }).first(), { timeout: 10_000 }).toBeTruthy();
      const { id } = await t.svc.ctx.db('lead_searches').where({ user_id: user.id }).first();
      await t.engine.waitForRequest(id);
      await t.engine.leads(id, [engineLead(1, { key: `osm:node/unstorable-${kind}`, company: 'Unstorable Dental' })]);

      const answer = await generating;
      expect(answer).toMatchObject({ status: 502, body: { detail: INTAKE_FAILED_ERROR } });
      const search = await ended(id, user.token);
      expect(search).toMatchObject({ status: 'failed', reason: 'intake_failed', error: INTAKE_FAILED_ERROR, credits_used: 0, leads_count: 0 });
      expect(t.billing.balanceOf(user.id)).toBe(20);
      await expect.poll(() => t.engine.cancelled.has(id)).toBe(true);
      // The event stays parked, to be replayed once whatever refused it is fixed.
      const parked = await listDeadLetters(t.svc.ctx.db, { group: 'leads.scrape-results' });
      expect(parked).toEqual([expect.objectContaining({ type: 'scrape.leads_found', error: expect.stringContaining('this lead cannot be stored') })]);

      // The engine's later reports on the search change nothing, and the next search runs as usual.
      await t.engine.finish(id, 'done');
      const next = await start(user.token, { ...body, location: `Storable ${kind}` });
      await t.engine.leads(next, [engineLead(2, { key: `osm:node/storable-${kind}` })]);
      await t.engine.finish(next, 'done');
      expect(await ended(next, user.token)).toMatchObject({ status: 'completed', leads_count: 1, credits_used: 1 });
      expect((await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body).toMatchObject({ status: 'failed', credits_used: 0 });
      expect(t.billing.balanceOf(user.id)).toBe(19);
    });
  });
}

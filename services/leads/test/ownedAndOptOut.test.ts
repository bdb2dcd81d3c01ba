import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { OPT_OUT_CONFIRMED, OPT_OUT_RECEIVED } from '@leadforge/contracts';
import { engineLead } from './support/engineStandIn.ts';
import { readFeed } from './support/feedReader.ts';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';
import { confirmationOf } from './support/optOutRequests.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
let seq = 0;

for (const kind of kinds) {
  const skipped = kind === 'postgres' && !postgresConfigured;
  describe.skipIf(skipped)(`never pay twice and opt-out, leads service on ${kind}${skipped ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;

    beforeAll(async () => {
      t = await startLeadsUnderTest(kind, { LEADS_MAX_RUNNING_PER_USER: '5', LEADS_OPT_OUTS_PER_HOUR: '1000' });
    });
    afterAll(async () => t?.stop());

    const newUser = (credits: number) => {
      const id = `user-owned-${kind}-${++seq}`;
      t.billing.setBalance(id, credits);
      return { id, token: t.auth.tokenFor(id) };
    };
    const admin = () => t.auth.tokenFor(`admin-${kind}-${++seq}`, { role: 'admin' });
    const start = (token: string, body: object) => t.call('POST', '/api/lead-searches', body, token);
    const detail = (id: string, token: string) => t.call('GET', `/api/lead-searches/${id}`, undefined, token);
    const ended = async (id: string, token: string) => {
      await expect.poll(async () => (await t.svc.ctx.db('lead_searches').where({ id }).first()).credits).toMatch(/^(settled|released)$/);
      return (await detail(id, token)).body;
    };
    /** A search run to its end with these leads from the engine. */
    const runSearch = async (token: string, body: object, leads: ReturnType<typeof engineLead>[]) => {
      const started = await start(token, body);
      expect(started.status).toBe(201);
      const id = started.body.id as string;
      const request = await t.engine.waitForRequest(id);
      await t.engine.leads(id, leads);
      await t.engine.finish(id, 'done');
      return { id, request, search: await ended(id, token) };
    };
    const lead = (i: number, overrides = {}) => engineLead(i, { key: `osm:node/${kind}-${seq}-${i}`, email: `hi${i}@shop${seq}x${i}.example`, website: `https://shop${seq}x${i}.example/`, phone: `+4930${seq}${String(i).padStart(5, '0')}`, ...overrides });

    it('skips businesses the user already has (same place or same website domain), fills the quantity with new ones and charges only those', async () => {
      const user = newUser(100);
      const body = { industry: 'Bakeries', location: 'Lindenau', quantity: 3 };
      const a = [lead(1), lead(2), lead(3)];
      const first = await runSearch(user.token, body, a);
      expect(first.search).toMatchObject({ leads_count: 3, credits_used: 3, stats: { skipped_owned: 0 } });
      expect(t.billing.balanceOf(user.id)).toBe(97);

      const started = await start(user.token, body);
      const id = started.body.id;
      // The engine is asked for more, so the quantity can still be filled after the skips.
      expect((await t.engine.waitForRequest(id)).quantity).toBe(6);
      const sameSiteOtherPlace = { ...a[2], key: 'osm:way/other-outline', company: 'Another name', website: 'https://www.' + new URL(a[2].website!).host + '/' };
      await t.engine.leads(id, [a[0], a[1], sameSiteOtherPlace, lead(4), lead(5), lead(6), lead(7)]);
      const second = await ended(id, user.token);
      expect(second).toMatchObject({ status: 'completed', leads_count: 3, credits_used: 3, stats: { total_found: 3, skipped_owned: 3, credits_used: 3 } });
      expect(second.leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 4', 'Bright Smiles Dental 5', 'Bright Smiles Dental 6']);
      expect(second.leads.some((l: { owned?: boolean }) => l.owned)).toBe(false);
      expect(t.billing.balanceOf(user.id)).toBe(94);
      // Filled before the engine finished: it is told to stop.
      await expect.poll(() => t.engine.cancelled.has(id)).toBe(true);

      // Another user owns nothing: the same businesses are new (and charged) for them.
      const other = newUser(10);
      const theirs = await runSearch(other.token, body, a);
      expect(theirs.search).toMatchObject({ leads_count: 3, credits_used: 3, stats: { skipped_owned: 0 } });
    });

    it('include_owned delivers owned businesses marked owned, free, within the same quantity', async () => {
      const user = newUser(100);
      const body = { industry: 'Florists', location: 'Plagwitz', quantity: 2 };
      const first = await runSearch(user.token, body, [lead(1), lead(2)]);
      expect(first.search.credits_used).toBe(2);

      const again = await runSearch(user.token, { ...body, quantity: 3, include_owned: true }, [lead(1), lead(8), lead(2)]);
      expect(again.request.quantity).toBe(3);
      expect(again.search).toMatchObject({ leads_count: 3, credits_used: 1, stats: { total_found: 3, credits_used: 1, skipped_owned: 0 } });
      expect(again.search.leads.map((l: { owned?: boolean }) => l.owned ?? false)).toEqual([true, false, true]);
      expect(t.billing.balanceOf(user.id)).toBe(97);

      const csv = parse((await t.call('GET', `/api/lead-searches/${again.id}/export.csv`, undefined, user.token)).text.replace(/^\uFEFF/, ''), { columns: true });
      expect(csv).toHaveLength(3);
    });

    it('charges again once the ownership window has passed', async () => {
      const user = newUser(100);
      const body = { industry: 'Tailors', location: 'Gohlis', quantity: 1 };
      const first = await runSearch(user.token, body, [lead(1)]);
      await t.svc.ctx.db('owned_businesses').where({ search_id: first.id }).update({ acquired_at: new Date(Date.now() - 91 * 86_400_000) });
      const second = await runSearch(user.token, body, [lead(1)]);
      expect(second.search).toMatchObject({ leads_count: 1, credits_used: 1, stats: { skipped_owned: 0 } });
      expect(t.billing.balanceOf(user.id)).toBe(98);
    });

    it('never charges one business twice when two searches of the same area run at the same time', async () => {
      const user = newUser(1000);
      const body = { industry: 'Cafes', location: 'Connewitz', quantity: 20 };
      const [s1, s2] = await Promise.all([start(user.token, body), start(user.token, body)]);
      expect([s1.status, s2.status]).toEqual([201, 201]);
      await Promise.all([t.engine.waitForRequest(s1.body.id), t.engine.waitForRequest(s2.body.id)]);
      const area = Array.from({ length: 12 }, (_, i) => lead(100 + i));
      // Both searches receive the same businesses in interleaved batches, at once.
      await Promise.all([
        ...[0, 4, 8].map((from) => t.engine.leads(s1.body.id, area.slice(from, from + 4))),
        ...[8, 4, 0].map((from) => t.engine.leads(s2.body.id, area.slice(from, from + 4))),
      ]);
      await Promise.all([t.engine.finish(s1.body.id, 'done'), t.engine.finish(s2.body.id, 'done')]);
      const [d1, d2] = await Promise.all([ended(s1.body.id, user.token), ended(s2.body.id, user.token)]);
      const charged = [...d1.leads, ...d2.leads].filter((l: { owned?: boolean }) => !l.owned).map((l: { company: string }) => l.company);
      expect(charged.sort()).toEqual(area.map((l) => l.company).sort());
      expect(d1.credits_used + d2.credits_used).toBe(12);
      expect(d1.stats.skipped_owned + d2.stats.skipped_owned).toBe(12);
      expect(t.billing.balanceOf(user.id)).toBe(1000 - 12);
    });

    it('suppresses an email once its owner confirms the mailed link, a phone once approved: blanked in past views, the CSV and the replayed feed, left out of new searches', async () => {
      const user = newUser(100);
      const body = { industry: 'Opticians', location: 'Reudnitz', quantity: 2 };
      const l1 = lead(1, { email: `Anna.${seq}@optik.example`, phone: '+493312345678' });
      const l2 = lead(2);
      const past = await runSearch(user.token, body, [l1, l2]);
      expect(past.search.leads[0].email).toBe(`Anna.${seq}@optik.example`);

      const byEmail = await t.call('POST', '/api/opt-out', { email: ` anna.${seq}@OPTIK.example `, reason: 'Please remove me' });
      expect(byEmail).toMatchObject({ status: 202, body: { message: OPT_OUT_RECEIVED } });
      const byPhone = await t.call('POST', '/api/opt-out', { phone: '+49 (331) 234-5678' });
      expect(byPhone).toMatchObject({ status: 202, body: { message: OPT_OUT_RECEIVED } });
      // Asked is not done: anyone may ask about anyone.
      expect((await detail(past.id, user.token)).body.leads[0]).toMatchObject({ email: l1.email, phone: l1.phone });

      const requested = await confirmationOf(t, `anna.${seq}@optik.example`);
      const token = admin();
      expect(requested.confirm_url).toMatch(/\/opt-out\/confirm\?token=/);
      expect(await t.call('POST', '/api/opt-out/confirm', { token: requested.token }))
        .toMatchObject({ status: 200, body: { message: OPT_OUT_CONFIRMED } });
      const phoneRequest = (await t.call('GET', '/api/admin/opt-outs?q=%2B493312345678', undefined, token)).body.requests[0];
      expect(phoneRequest).toMatchObject({ phone: '+493312345678', status: 'pending' });
      expect((await t.call('POST', `/api/admin/opt-outs/${phoneRequest.id}/approve`, undefined, token)).body.status).toBe('approved');

      const view = (await detail(past.id, user.token)).body;
      expect(view.leads[0]).toMatchObject({ company: l1.company, email: '', phone: '' });
      expect(view.leads[1].email).toBe(l2.email);
      const csv = parse((await t.call('GET', `/api/lead-searches/${past.id}/export.csv`, undefined, user.token)).text.replace(/^\uFEFF/, ''), { columns: true });
      expect(csv[0]).toMatchObject({ Email: "Removed at the owner's request", Phone: "Removed at the owner's request" });
      const { messages } = await readFeed(`${t.svc.url}/api/lead-searches/${past.id}/events`, { authorization: `Bearer ${user.token}` }, { until: (m) => m.event === 'finished' });
      const fed = messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads);
      expect(fed[0]).toMatchObject({ email: '', phone: '' });

      // Left with no way to reach it, it is no lead: not delivered, not charged.
      const other = newUser(10);
      const fresh = await runSearch(other.token, body, [l1]);
      expect(fresh.search).toMatchObject({ leads: [], leads_count: 0, credits_used: 0 });
      expect(t.billing.balanceOf(other.id)).toBe(10);
    });

    it('a website waits for an administrator: approved, the business is blanked in past searches and never in new ones; rejected or lifted, it shows again', async () => {
      const user = newUser(100);
      const n = seq;
      const body = { industry: 'Plumbers', location: 'Eutritzsch', quantity: 2 };
      const l1 = lead(1, { website: `https://www.rohr${n}.de/kontakt`, email: `info@rohr${n}.de` });
      const past = await runSearch(user.token, body, [l1, lead(2)]);

      expect((await t.call('POST', '/api/opt-out', { website: `rohr${n}.de`, reason: 'We do not want to be listed' })).status).toBe(202);
      expect((await detail(past.id, user.token)).body.leads[0].website).toBe(l1.website);

      const token = admin();
      const list = await t.call('GET', `/api/admin/opt-outs?q=rohr${n}`, undefined, token);
      expect(list.status).toBe(200);
      expect(list.body.requests).toEqual([expect.objectContaining({ domain: `rohr${n}.de`, status: 'pending', reason: 'We do not want to be listed' })]);
      const asked = { body: list.body.requests[0] as { id: string } };
      expect(list.body.suppressed).toEqual([]);
      expect((await t.call('GET', '/api/admin/opt-outs', undefined, user.token)).status).toBe(403);

      const approved = await t.call('POST', `/api/admin/opt-outs/${asked.body.id}/approve`, undefined, token);
      expect(approved.body).toMatchObject({ status: 'approved', decided_at: expect.any(String) });
      expect((await t.call('POST', `/api/admin/opt-outs/${asked.body.id}/reject`, undefined, token)).status).toBe(409);
      expect((await t.call('GET', `/api/admin/opt-outs?q=rohr${n}`, undefined, token)).body.suppressed)
        .toEqual([{ kind: 'host', value: `rohr${n}.de`, opt_out_id: asked.body.id }]);

      const blanked = (await detail(past.id, user.token)).body.leads[0];
      expect(blanked).toMatchObject({ company: l1.company, name: '', email: '', phone: '', website: '' });
      const fresh = await runSearch(newUser(10).token, { ...body, quantity: 1 }, [l1, lead(3)]);
      expect(fresh.search.leads.map((l: { company: string }) => l.company)).toEqual([lead(3).company]);

      expect((await t.call('DELETE', `/api/admin/opt-outs/${asked.body.id}`, undefined, token)).body.status).toBe('lifted');
      expect((await detail(past.id, user.token)).body.leads[0].website).toBe(l1.website);

      expect((await t.call('POST', '/api/opt-out', { website: 'http://203.0.113.7:8080/shop' })).status).toBe(202);
      const other = { body: (await t.call('GET', '/api/admin/opt-outs?q=203.0.113.7', undefined, token)).body.requests[0] as { id: string } };
      const rejected = await t.call('POST', `/api/admin/opt-outs/${other.body.id}/reject`, undefined, token);
      expect(rejected.body).toMatchObject({ status: 'rejected', domain: '203.0.113.7' });
    });

    it('refuses bad opt-out input with a 4xx and a detail', async () => {
      const bad = async (body: unknown) => {
        const res = await t.call('POST', '/api/opt-out', body);
        expect(res.status).toBe(400);
        return res.body.detail as string;
      };
      expect(await bad({})).toBe('Please give an email address, a phone number or a website');
      expect(await bad({ email: '   ', reason: 'x' })).toBe('Please give an email address, a phone number or a website');
      expect(await bad({ email: 'not-an-email' })).toBe('Please enter a valid email address');
      expect(await bad({ phone: '030 1234567' })).toBe('Please give the phone number in international format, starting with + and the country code');
      expect(await bad({ website: 'localhost' })).toBe('Please give a website address such as example.com');
      expect(await bad({ website: 'javascript:alert(1)' })).toBe('Please give a website address such as example.com');
      expect(await bad('not json')).toBeTruthy();
      // Control characters (NUL among them, which PostgreSQL text refuses) never make a 500.
      expect((await t.call('POST', '/api/opt-out', { email: `nul${kind}@opt.example`, reason: 'a\u0000b', website: `nul\u0000${kind}.example.de` })).status).toBeLessThan(500);
      const token = admin();
      expect((await t.call('GET', '/api/admin/opt-outs?q=%00', undefined, token)).status).toBeLessThan(500);
      expect((await t.call('GET', '/api/admin/opt-outs?q=%01', undefined, token)).status).toBe(200);
      expect((await t.call('POST', '/api/admin/opt-outs/not-a-uuid/approve', undefined, token)).status).toBe(404);
      expect((await t.call('GET', '/api/admin/opt-outs?page=0', undefined, token)).status).toBe(400);
    });
  });
}

describe('opt-out rate limit (pglite)', () => {
  let t: LeadsUnderTest;
  beforeAll(async () => {
    t = await startLeadsUnderTest('pglite', { LEADS_OPT_OUTS_PER_HOUR: '2' });
  });
  afterAll(async () => t?.stop());

  it('answers 429 with a detail past the hourly limit per address, invalid attempts counted too', async () => {
    expect((await t.call('POST', '/api/opt-out', {})).status).toBe(400);
    expect((await t.call('POST', '/api/opt-out', { email: 'one@limit.example' })).status).toBe(202);
    const third = await t.call('POST', '/api/opt-out', { email: 'two@limit.example' });
    expect(third.status).toBe(429);
    expect(third.body.detail).toMatch(/^Too many requests; try again in \d+ seconds?$/);
  });
});

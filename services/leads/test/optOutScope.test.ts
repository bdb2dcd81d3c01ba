import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { engineLead } from './support/engineStandIn.ts';
import { readFeed } from './support/feedReader.ts';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';
import { confirmedEmailOptOut, optOutRequestOf } from './support/optOutRequests.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const REMOVED = "Removed at the owner's request";
let seq = 0;

for (const kind of kinds) {
  const skipped = kind === 'postgres' && !postgresConfigured;
  describe.skipIf(skipped)(`what a website opt-out covers, leads service on ${kind}${skipped ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;

    beforeAll(async () => {
      t = await startLeadsUnderTest(kind, { LEADS_MAX_RUNNING_PER_USER: '5', LEADS_OPT_OUTS_PER_HOUR: '1000' });
    });
    afterAll(async () => t?.stop());

    const newUser = () => {
      const id = `user-scope-${kind}-${++seq}`;
      t.billing.setBalance(id, 100);
      return { id, token: t.auth.tokenFor(id) };
    };
    const admin = () => t.auth.tokenFor(`admin-scope-${kind}-${++seq}`, { role: 'admin' });
    const detail = async (id: string, token: string) => (await t.call('GET', `/api/lead-searches/${id}`, undefined, token)).body;
    /** A search run to its end with these leads from the engine. */
    const runSearch = async (token: string, leads: ReturnType<typeof engineLead>[]) => {
      const started = await t.call('POST', '/api/lead-searches', { industry: 'Bakeries', location: `Town ${++seq}`, quantity: leads.length }, token);
      expect(started.status).toBe(201);
      const id = started.body.id as string;
      await t.engine.waitForRequest(id);
      await t.engine.leads(id, leads);
      await t.engine.finish(id, 'done');
      await expect.poll(async () => (await t.svc.ctx.db('lead_searches').where({ id }).first()).credits).toMatch(/^(settled|released)$/);
      return id;
    };
    const onSite = (i: number, host: string, overrides = {}) => engineLead(i, {
      key: `osm:node/scope-${kind}-${seq}-${i}`, website: `https://${host}/`, email: `hello@${host}`, phone: `+4930${seq}${String(i).padStart(5, '0')}`, ...overrides,
    });

    it('covers the host asked for and its subdomains, never its parent or neighbours; the administrator sees what approving blanks, and the blanked fields say why', async () => {
      const market = `market${kind}${++seq}.com`;
      const bakery = onSite(1, `sunrisebakery.${market}`);
      const cafe = onSite(2, `harbourcafe.${market}`);
      const portal = onSite(3, market, { website: '', email: `office@${market}` });
      const userA = newUser();
      const pastA = await runSearch(userA.token, [bakery, cafe, portal]);
      const userB = newUser();
      const branch = onSite(4, `shop.sunrisebakery.${market}`, { website: `https://www.shop.sunrisebakery.${market}/order` });
      const pastB = await runSearch(userB.token, [branch, onSite(5, `deli.${market}`)]);

      expect((await t.call('POST', '/api/opt-out', { website: `https://sunrisebakery.${market}/` })).status).toBe(202);
      const token = admin();
      const asked = { body: await optOutRequestOf(t, `sunrisebakery.${market}`, token) };
      expect(asked.body.status).toBe('pending');
      const listed = (await t.call('GET', `/api/admin/opt-outs?q=sunrisebakery.${market}`, undefined, token)).body;
      expect(listed.requests).toEqual([expect.objectContaining({ id: asked.body.id, domain: `sunrisebakery.${market}`, scope: 'host', widens_to: market })]);

      // Before approving: the host reaches the bakery and its branch (two users' searches); widened, all of the market.
      const preview = await t.call('GET', `/api/admin/opt-outs/${asked.body.id}/preview`, undefined, token);
      expect(preview.status).toBe(200);
      expect(preview.body).toEqual({ scope: 'host', value: `sunrisebakery.${market}`, leads: 2, searches: 2, users: 2 });
      expect((await t.call('GET', `/api/admin/opt-outs/${asked.body.id}/preview?scope=domain`, undefined, token)).body)
        .toEqual({ scope: 'domain', value: market, leads: 5, searches: 2, users: 2 });

      const approved = await t.call('POST', `/api/admin/opt-outs/${asked.body.id}/approve`, undefined, token);
      expect(approved.body).toMatchObject({ status: 'approved', domain: `sunrisebakery.${market}`, scope: 'host' });

      const [a1, a2, a3] = (await detail(pastA, userA.token)).leads;
      expect(a1).toMatchObject({ company: bakery.company, name: '', email: '', phone: '', website: '', removed: ['name', 'email', 'phone', 'website'] });
      // The neighbours under the same registrable domain are untouched.
      expect(a2).toMatchObject({ company: cafe.company, email: cafe.email, website: cafe.website });
      expect(a3).toMatchObject({ company: portal.company, email: portal.email });
      expect(a2.removed).toBeUndefined();
      expect(a3.removed).toBeUndefined();
      const [b1, b2] = (await detail(pastB, userB.token)).leads;
      expect(b1).toMatchObject({ website: '', email: '', removed: ['name', 'email', 'phone', 'website'] });
      expect(b2.website).toBe(`https://deli.${market}/`);

      // Every export says why the cells are empty.
      const csv = parse((await t.call('GET', `/api/lead-searches/${pastA}/export.csv`, undefined, userA.token)).text.replace(/^\uFEFF/, ''), { columns: true });
      expect(csv[0]).toMatchObject({ Name: REMOVED, Company: bakery.company, Email: REMOVED, Phone: REMOVED, Website: REMOVED, City: bakery.city });
      expect(csv[1]).toMatchObject({ Email: cafe.email, Website: cafe.website });
      const json = JSON.parse((await t.call('GET', `/api/lead-searches/${pastA}/export.json`, undefined, userA.token)).text);
      expect(json.leads[0]).toMatchObject({ email: '', removed: ['name', 'email', 'phone', 'website'] });
      expect(json.leads[1].removed).toBeUndefined();
      const xlsx = await fetch(`${t.svc.url}/api/lead-searches/${pastA}/export.xlsx`, { headers: { authorization: `Bearer ${userA.token}` } });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ExcelJS.Buffer);
      const sheet = workbook.getWorksheet('Leads')!;
      expect((sheet.getRow(2).values as unknown[]).slice(1, 7)).toEqual([REMOVED, bakery.company, REMOVED, REMOVED, REMOVED, bakery.city]);
      expect(sheet.getRow(3).getCell(3).value).toBe(cafe.email);
      const { messages } = await readFeed(`${t.svc.url}/api/lead-searches/${pastA}/events`, { authorization: `Bearer ${userA.token}` }, { until: (m) => m.event === 'finished' });
      const fed = messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads);
      expect(fed[0]).toMatchObject({ website: '', removed: ['name', 'email', 'phone', 'website'] });
      expect(fed[1].website).toBe(cafe.website);

      // Widening to the registrable domain is the administrator's explicit choice, and recorded as such.
      await t.call('POST', '/api/opt-out', { website: `harbourcafe.${market}` });
      const cafeAsked = { body: await optOutRequestOf(t, `harbourcafe.${market}`, token) };
      const widened = await t.call('POST', `/api/admin/opt-outs/${cafeAsked.body.id}/approve`, { scope: 'domain' }, token);
      expect(widened.body).toMatchObject({ status: 'approved', domain: market, scope: 'domain', widens_to: null });
      expect((await t.call('GET', `/api/admin/opt-outs?q=${market}`, undefined, token)).body.suppressed).toEqual(expect.arrayContaining([
        { kind: 'host', value: `sunrisebakery.${market}`, opt_out_id: asked.body.id },
        { kind: 'domain', value: market, opt_out_id: cafeAsked.body.id },
      ]));
      const widenedView = (await detail(pastA, userA.token)).leads;
      expect(widenedView[1]).toMatchObject({ website: '', removed: ['name', 'email', 'phone', 'website'] });
      expect(widenedView[2]).toMatchObject({ email: '', removed: ['email'] });
    });

    it('marks a contact blanked by an email opt-out, in a past search and in a new one, whose stored lead says so too', async () => {
      const user = newUser();
      const host = `optik${kind}${++seq}.de`;
      const shop = onSite(1, host, { email: `anna@${host}` });
      const past = await runSearch(user.token, [shop]);
      await confirmedEmailOptOut(t, `anna@${host}`);
      expect((await detail(past, user.token)).leads[0]).toMatchObject({ email: '', website: shop.website, removed: ['email'] });

      const other = newUser();
      const fresh = await runSearch(other.token, [shop]);
      expect(await t.svc.ctx.db('leads').where({ search_id: fresh }).first()).toMatchObject({ email: '', removed: ['email'] });
      expect((await detail(fresh, other.token)).leads[0]).toMatchObject({ email: '', website: shop.website, removed: ['email'] });
    });

    it('refuses bad approvals and previews with a 4xx and a detail', async () => {
      const token = admin();
      const n = ++seq;
      await t.call('POST', '/api/opt-out', { email: `only${kind}${n}@mail.example` });
      const byEmail = { body: await optOutRequestOf(t, `only${kind}${n}@mail.example`, token) };
      const preview = await t.call('GET', `/api/admin/opt-outs/${byEmail.body.id}/preview`, undefined, token);
      expect(preview.status).toBe(409);
      expect(preview.body.detail).toMatch(/names no website/);
      await t.call('POST', '/api/opt-out', { website: `a.b${kind}${n}.co.uk` });
      const site = { body: await optOutRequestOf(t, `a.b${kind}${n}.co.uk`, token) };
      const bad = await t.call('POST', `/api/admin/opt-outs/${site.body.id}/approve`, { scope: 'everything' }, token);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toBeTruthy();
      expect((await t.call('GET', `/api/admin/opt-outs/${site.body.id}/preview?scope=planet`, undefined, token)).status).toBe(400);
      expect((await t.call('GET', '/api/admin/opt-outs/not-a-uuid/preview', undefined, token)).status).toBe(404);
      expect((await t.call('GET', `/api/admin/opt-outs/${site.body.id}/preview`, undefined, newUser().token)).status).toBe(403);
      expect((await t.call('GET', `/api/admin/opt-outs/${site.body.id}/preview?scope=domain`, undefined, token)).body)
        .toMatchObject({ scope: 'domain', value: `b${kind}${n}.co.uk`, leads: 0 });
    });
  });
}

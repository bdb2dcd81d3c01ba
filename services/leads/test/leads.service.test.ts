import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { insufficientCreditsDetail } from '@leadforge/contracts';
import { engineLead } from './support/engineStandIn.ts';
import { readFeed } from './support/feedReader.ts';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
let userSeq = 0;

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`leads service on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;

    beforeAll(async () => {
      t = await startLeadsUnderTest(kind, { LEADS_MAX_RUNNING_PER_USER: '2' });
    });
    afterAll(async () => t?.stop());

    /** A fresh user with `credits` and their token. */
    const newUser = (credits: number) => {
      const id = `user-${kind}-${++userSeq}`;
      t.billing.setBalance(id, credits);
      return { id, token: t.auth.tokenFor(id) };
    };
    const start = (token: string, body: object = { industry: 'Dentists', location: 'Springfield', quantity: 10 }) =>
      t.call('POST', '/api/lead-searches', body, token);
    const feedUrl = (id: string) => `${t.svc.url}/api/lead-searches/${id}/events`;
    const outboxEvents = async (type: string, searchId: string) =>
      (await t.svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = ?", [type]).andWhere({ key: searchId })).map((r) => r.envelope);

    it('holds the credits, asks the engine, streams progress and leads live, then charges only distinct delivered leads', async () => {
      const user = newUser(50);
      const started = await start(user.token, { industry: 'Dentists', location: 'Springfield', quantity: 10 });
      expect(started.status).toBe(201);
      expect(started.body).toMatchObject({ industry: 'Dentists', location: 'Springfield', quantity: 10, status: 'running', leads_count: 0 });
      const id = started.body.id;
      expect(t.billing.balanceOf(user.id)).toBe(40);

      const request = await t.engine.waitForRequest(id);
      expect(request).toMatchObject({ search_id: id, user_id: user.id, industry: 'Dentists', location: 'Springfield', quantity: 10 });
      expect(Date.parse(request.deadline_at)).toBeGreaterThan(Date.now());
      // A search is no monitor's run: the engine crawls every site afresh.
      expect(request.monitor_id).toBeUndefined();

      const feed = readFeed(feedUrl(id), { authorization: `Bearer ${user.token}` }, { until: (m) => m.event === 'finished' });
      await t.engine.progress(id, 8, 0, 0);
      await t.engine.leads(id, [engineLead(1), engineLead(2)]);
      await t.engine.progress(id, 8, 4, 2);
      // The same place again, and the same business under another place id: neither is a new lead.
      await t.engine.leads(id, [engineLead(1), engineLead(3), { ...engineLead(2), key: 'osm:way/77' }, engineLead(4, { email: '', website: '' })]);
      await t.engine.finish(id, 'done');

      const { messages, headers } = await feed;
      expect(headers.get('content-type')).toContain('text/event-stream');
      expect(messages.map((m) => m.event)).toEqual(['progress', 'leads', 'progress', 'leads', 'finished']);
      expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
      expect(messages[1].data.leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 1', 'Bright Smiles Dental 2']);
      expect(messages[3].data.leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 3', 'Bright Smiles Dental 4']);
      expect(messages[3].data.stats).toMatchObject({ total_found: 4, with_email: 3, with_website: 3, with_phone: 4, credits_used: 4, remaining_credits: 46 });
      expect(messages[4].data).toEqual({
        status: 'completed', reason: 'done', error: null,
        stats: { total_found: 4, with_email: 3, with_phone: 4, with_website: 3, credits_used: 4, remaining_credits: 46, skipped_owned: 0 },
      });

      expect(t.billing.balanceOf(user.id)).toBe(46);
      const detail = await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token);
      expect(detail.body).toMatchObject({ status: 'completed', leads_count: 4, credits_used: 4, progress: { places_found: 8, websites_checked: 4, leads_found: 4 } });
      expect(detail.body.leads).toHaveLength(4);
      expect(detail.body.leads[0]).toEqual({
        name: 'Owner 1', company: 'Bright Smiles Dental 1', email: 'hello1@brightsmiles1.example', phone: '+15550100001',
        website: 'https://brightsmiles1.example/', city: 'Springfield', source: 'osm',
      });

      const [completed] = await outboxEvents('search.completed', id);
      expect(completed.data).toMatchObject({ search_id: id, user_id: user.id, results_count: 4, credits_used: 4, industry: 'Dentists', location: 'Springfield', status: 'completed' });
      expect(Date.parse(completed.data.timestamp)).not.toBeNaN();
    });

    it('replays the feed after Last-Event-ID, and a finished search replays to its end and closes', async () => {
      const user = newUser(20);
      const id = (await start(user.token, { industry: 'Plumbers', location: 'Shelbyville', quantity: 3 })).body.id;
      await t.engine.waitForRequest(id);
      await t.engine.leads(id, [engineLead(11)]);
      await t.engine.progress(id, 5, 1, 1);
      const resumed = readFeed(feedUrl(id), { authorization: `Bearer ${user.token}`, 'last-event-id': '1' }, { until: (m) => m.event === 'finished' });
      await t.engine.leads(id, [engineLead(12), engineLead(13)]);
      const { messages } = await resumed;
      expect(messages.map((m) => [m.id, m.event])).toEqual([[2, 'progress'], [3, 'leads'], [4, 'finished']]);
      // Three of three arrived: the search ended without waiting for the engine.
      expect(messages[2].data).toMatchObject({ status: 'completed', reason: 'done', stats: { total_found: 3, credits_used: 3, remaining_credits: 17 } });

      const all = await readFeed(`${feedUrl(id)}?last_event_id=0`, { authorization: `Bearer ${user.token}` });
      expect(all.messages.map((m) => m.event)).toEqual(['leads', 'progress', 'leads', 'finished']);
      const past = await readFeed(feedUrl(id), { authorization: `Bearer ${user.token}`, 'last-event-id': '4' }, { timeoutMs: 5000 });
      expect(past.status).toBe(200);
      expect(past.messages).toEqual([]);
    });

    it('never stores or charges more leads than the quantity held', async () => {
      const user = newUser(10);
      const id = (await start(user.token, { industry: 'Bakers', location: 'Ogdenville', quantity: 2 })).body.id;
      await t.engine.waitForRequest(id);
      await t.engine.leads(id, [engineLead(21), engineLead(22), engineLead(23), engineLead(24)]);
      await t.engine.leads(id, [engineLead(25)]);
      await t.engine.finish(id, 'done');
      const detail = (await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body;
      expect(detail.leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 21', 'Bright Smiles Dental 22']);
      expect(detail.credits_used).toBe(2);
      await expect.poll(() => t.billing.balanceOf(user.id)).toBe(8);
    });

    it('answers 402 with billing\'s detail when credits are short, and keeps no search', async () => {
      const user = newUser(5);
      const res = await start(user.token, { industry: 'Dentists', location: 'Springfield', quantity: 10 });
      expect(res.status).toBe(402);
      expect(res.body.detail).toBe(insufficientCreditsDetail(5, 10));
      const sync = await t.call('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Springfield', quantity: 6 }, user.token);
      expect(sync.status).toBe(402);
      expect(sync.body.detail).toBe('Insufficient credits. You have 5 credits but need 6.');
      expect((await t.call('GET', '/api/lead-searches', undefined, user.token)).body).toMatchObject({ searches: [], total: 0 });
      expect(t.billing.balanceOf(user.id)).toBe(5);
    });

    it('runs one of two concurrent 10-lead searches for a user with 15 credits; the other gets the 402 detail', async () => {
      const user = newUser(15);
      const body = { industry: 'Dentists', location: 'Springfield', quantity: 10 };
      const results = await Promise.all([start(user.token, body), start(user.token, body)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 402]);
      expect(results.find((r) => r.status === 402)!.body.detail).toBe(insufficientCreditsDetail(5, 10));
      expect(t.billing.balanceOf(user.id)).toBe(5);
      const id = results.find((r) => r.status === 201)!.body.id;
      await t.engine.waitForRequest(id);
      await t.engine.leads(id, [engineLead(31), engineLead(32), engineLead(33)]);
      await t.engine.finish(id, 'done');
      await expect.poll(() => t.billing.balanceOf(user.id)).toBe(12);
    });

    it('limits a user to two running searches, with a clear message, and frees the slot when one ends', async () => {
      const user = newUser(100);
      const first = await start(user.token);
      const second = await start(user.token);
      const third = await start(user.token);
      expect([first.status, second.status, third.status]).toEqual([201, 201, 429]);
      expect(third.body.detail).toBe('You already have 2 searches running. Wait for one to finish or cancel it, then try again.');
      expect(t.billing.balanceOf(user.id)).toBe(80);
      expect((await t.call('DELETE', `/api/lead-searches/${first.body.id}`, undefined, user.token)).status).toBe(200);
      expect((await start(user.token)).status).toBe(201);
    });

    it('cancels a running search: keeps and charges what was delivered, tells the engine, ignores later leads', async () => {
      const user = newUser(30);
      const id = (await start(user.token, { industry: 'Dentists', location: 'Springfield', quantity: 20 })).body.id;
      await t.engine.waitForRequest(id);
      await t.engine.leads(id, [engineLead(41), engineLead(42)]);
      const cancelled = await t.call('DELETE', `/api/lead-searches/${id}`, undefined, user.token);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', reason: 'cancelled', leads_count: 2, credits_used: 2 });
      expect(t.billing.balanceOf(user.id)).toBe(28);
      await expect.poll(() => t.engine.cancelled.has(id)).toBe(true);
      await t.engine.leads(id, [engineLead(43)]);
      await t.engine.finish(id, 'cancelled');
      const detail = (await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body;
      expect(detail.leads).toHaveLength(2);
      expect(t.billing.balanceOf(user.id)).toBe(28);
      const again = await t.call('DELETE', `/api/lead-searches/${id}`, undefined, user.token);
      expect(again).toMatchObject({ status: 409, body: { detail: 'This search has already finished' } });
    });

    it('charges nothing when the source fails, and the synchronous call answers with the reason', async () => {
      const user = newUser(10);
      const pending = t.call('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Nowhere', quantity: 10 }, user.token);
      await expect.poll(() => [...t.engine.requested.values()].find((r) => r.user_id === user.id)).toBeTruthy();
      const id = [...t.engine.requested.values()].find((r) => r.user_id === user.id)!.search_id;
      expect(t.billing.balanceOf(user.id)).toBe(0);
      await t.engine.finish(id, 'source_failed', 'overpass answered 504');
      const res = await pending;
      expect(res.status).toBe(502);
      expect(res.body.detail).toBe('The business directory could not be searched right now. Nothing was charged; please try again in a few minutes.');
      expect(t.billing.balanceOf(user.id)).toBe(10);
      const summary = (await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body;
      expect(summary).toMatchObject({ status: 'failed', reason: 'source_failed', credits_used: 0, leads: [] });
      const [completed] = await outboxEvents('search.completed', id);
      expect(completed.data).toMatchObject({ results_count: 0, credits_used: 0, status: 'failed' });
    });

    it('says why a search failed with the engine\'s code, and the places to search instead; the status follows the code', async () => {
      const cases = [
        { failure: { code: 'location_not_found' as const, candidates: ['Lindenfeld, Hessen, Germany'] }, status: 422, says: 'We could not find "Nowhere" on the map. Nothing was charged; check the spelling or pick the place from the suggestions. Did you mean Lindenfeld, Hessen, Germany?' },
        { failure: { code: 'location_ambiguous' as const, candidates: ['Neustadt A', 'Neustadt B'] }, status: 422, says: '"Nowhere" names several places, such as Neustadt A; Neustadt B. Nothing was charged; pick the one you mean and search again.' },
        { failure: { code: 'provider_unreachable' as const }, status: 502, says: 'The business directory could not be reached. Nothing was charged; please try again in a few minutes.' },
        { failure: { code: 'provider_quota_exhausted' as const }, status: 503, says: 'The business directory refuses more searches for now: its quota is used up. Nothing was charged; please try again later.' },
        { failure: { code: 'no_source_configured' as const }, status: 503, says: 'No business directory is set up to search yet. Nothing was charged; an administrator needs to configure a places source.' },
      ];
      for (const { failure, status, says } of cases) {
        const user = newUser(10);
        const pending = t.call('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Nowhere', quantity: 10 }, user.token);
        await expect.poll(() => [...t.engine.requested.values()].find((r) => r.user_id === user.id)).toBeTruthy();
        const id = [...t.engine.requested.values()].find((r) => r.user_id === user.id)!.search_id;
        await t.engine.finish(id, 'source_failed', 'the engine\'s own words', failure);
        const res = await pending;
        expect({ status: res.status, body: res.body }).toEqual({ status, body: { detail: says, code: failure.code, ...(failure.candidates ? { error_candidates: failure.candidates } : {}) } });
        expect(t.billing.balanceOf(user.id)).toBe(10);
        const summary = (await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body;
        expect(summary).toMatchObject({ status: 'failed', error: says, error_code: failure.code, credits_used: 0 });
        expect(summary.error_candidates).toEqual(failure.candidates);
      }
    });

    it('POST /api/generate-leads waits for the search and answers { leads, stats }', async () => {
      const user = newUser(25);
      const pending = t.call('POST', '/api/generate-leads', { industry: 'Cafes', location: 'Capital City', quantity: 5 }, user.token);
      await expect.poll(() => [...t.engine.requested.values()].find((r) => r.user_id === user.id)).toBeTruthy();
      const id = [...t.engine.requested.values()].find((r) => r.user_id === user.id)!.search_id;
      await t.engine.leads(id, [engineLead(51), engineLead(52, { phone: '' }), engineLead(53)]);
      await t.engine.finish(id, 'done');
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 51', 'Bright Smiles Dental 52', 'Bright Smiles Dental 53']);
      expect(res.body.stats).toEqual({ total_found: 3, with_email: 3, with_phone: 2, with_website: 3, credits_used: 3, remaining_credits: 22, skipped_owned: 0 });
      expect(t.billing.balanceOf(user.id)).toBe(22);
    });

    it('shows a user only their own searches: another user\'s id is 404 everywhere', async () => {
      const owner = newUser(10);
      const other = newUser(10);
      const id = (await start(owner.token, { industry: 'Dentists', location: 'Springfield', quantity: 1 })).body.id;
      for (const [method, path] of [['GET', `/api/lead-searches/${id}`], ['GET', `/api/lead-searches/${id}/events`], ['GET', `/api/lead-searches/${id}/export.csv`], ['DELETE', `/api/lead-searches/${id}`]]) {
        const res = await t.call(method, path, undefined, other.token);
        expect({ path, method, status: res.status, detail: res.body.detail }).toEqual({ path, method, status: 404, detail: 'Search not found' });
      }
      for (const bad of ['not-a-uuid', '00000000-0000-7000-8000-000000000000', 'x'.repeat(64)]) {
        expect((await t.call('GET', `/api/lead-searches/${bad}`, undefined, owner.token)).status).toBe(404);
      }
      expect((await t.call('GET', `/api/lead-searches/${id}`)).status).toBe(401);
      expect((await t.call('GET', '/api/lead-searches', undefined, other.token)).body.total).toBe(0);
    });

    it('answers bad input with 400 and a detail, never a 5xx, and holds no credits', async () => {
      const user = newUser(500);
      const big = 'x'.repeat(10 * 1024);
      const cases: [unknown, string][] = [
        [{ industry: 'Dentists', location: 'Springfield', quantity: 0 }, 'Quantity must be a whole number from 1 to 200'],
        [{ industry: 'Dentists', location: 'Springfield', quantity: 201 }, 'Quantity must be a whole number from 1 to 200'],
        [{ industry: 'Dentists', location: 'Springfield', quantity: -1 }, 'Quantity must be a whole number from 1 to 200'],
        [{ industry: 'Dentists', location: 'Springfield', quantity: 'abc' }, 'Quantity must be a whole number from 1 to 200'],
        [{ industry: 'Dentists', location: 'Springfield', quantity: 2.5 }, 'Quantity must be a whole number from 1 to 200'],
        [{ industry: 'Dentists', location: 'Springfield', quantity: null }, 'Quantity must be a whole number from 1 to 200'],
        [{ location: 'Springfield', quantity: 5 }, 'Please fill in both industry and location fields'],
        [{ industry: 'Dentists' }, 'Please fill in both industry and location fields'],
        [{ industry: '', location: 'Springfield' }, 'Please fill in both industry and location fields'],
        [{ industry: '   ', location: 'Springfield' }, 'Please fill in both industry and location fields'],
        [{ industry: big, location: 'Springfield', quantity: 5 }, 'Industry must be at most 100 characters'],
        [{ industry: 'Dentists', location: big, quantity: 5 }, 'Location must be at most 200 characters'],
        [{}, 'Please fill in both industry and location fields'],
        ['{"industry": ', 'Request body is not valid JSON'],
        [[], 'body must be object'],
      ];
      for (const path of ['/api/lead-searches', '/api/generate-leads']) {
        for (const [body, detail] of cases) {
          const res = await t.call('POST', path, body, user.token);
          expect({ path, body: JSON.stringify(body).slice(0, 80), status: res.status, detail: res.body.detail }).toEqual({ path, body: JSON.stringify(body).slice(0, 80), status: 400, detail });
        }
      }
      expect((await t.call('GET', '/api/lead-searches?page=0', undefined, user.token)).body.detail).toBe('page must be a whole number from 1');
      expect((await t.call('GET', '/api/lead-searches?page_size=abc', undefined, user.token)).status).toBe(400);
      expect(t.billing.balanceOf(user.id)).toBe(500);
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toEqual([]);
    });

    it('counts searches, leads and settlements on /metrics', async () => {
      const metrics = await (await fetch(`${t.svc.url}/metrics`)).text();
      expect(metrics).toMatch(/leadforge_leads_searches_total\{outcome="started"\} [1-9]/);
      expect(metrics).toMatch(/leadforge_leads_delivered_total [1-9]/);
      expect(metrics).toMatch(/leadforge_leads_settlements_total\{outcome="settled"\} [1-9]/);
      expect(metrics).toMatch(/leadforge_leads_time_to_first_lead_seconds_count [1-9]/);
    });

    it('defaults the quantity to 10', async () => {
      const user = newUser(10);
      const res = await start(user.token, { industry: 'Dentists', location: 'Springfield' });
      expect(res.body.quantity).toBe(10);
      expect(t.billing.balanceOf(user.id)).toBe(0);
    });

    it('lists the user\'s history newest first, paginated', async () => {
      const user = newUser(100);
      const ids: string[] = [];
      for (const location of ['A-town', 'B-ville', 'C-city']) {
        const id = (await start(user.token, { industry: 'Roofers', location, quantity: 1 })).body.id;
        await t.engine.waitForRequest(id);
        await t.engine.leads(id, [engineLead(60 + ids.length)]);
        ids.push(id);
      }
      const page1 = (await t.call('GET', '/api/lead-searches?page=1&page_size=2', undefined, user.token)).body;
      expect(page1).toMatchObject({ total: 3, page: 1, page_size: 2 });
      expect(page1.searches.map((s: { location: string }) => s.location)).toEqual(['C-city', 'B-ville']);
      expect(page1.searches[0]).toMatchObject({ industry: 'Roofers', status: 'completed', leads_count: 1, credits_used: 1, finished_at: expect.any(String) });
      const page2 = (await t.call('GET', '/api/lead-searches?page=2&page_size=2', undefined, user.token)).body;
      expect(page2.searches.map((s: { location: string }) => s.location)).toEqual(['A-town']);
    });

    it('filters the history by words in the industry or location, by day and by status; bad filters are a 400', async () => {
      const user = newUser(100);
      // At most two run at once: the bakers' search ends (its one lead delivered) before the third starts.
      for (const [industry, location] of [['Roofers', 'Leeds'], ['Bakers', 'Leeds 100%'], ['Roofers', 'York']] as const) {
        const id = (await start(user.token, { industry, location, quantity: 1 })).body.id;
        await t.engine.waitForRequest(id);
        if (industry === 'Bakers') {
          await t.engine.leads(id, [engineLead(80)]);
          await expect.poll(async () => (await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body.status).toBe('completed');
        }
      }
      const locations = async (query: string) =>
        ((await t.call('GET', `/api/lead-searches?${query}`, undefined, user.token)).body.searches as { industry: string; location: string }[])
          .map((s) => `${s.industry} ${s.location}`);

      expect(await locations('q=leeds')).toEqual(['Bakers Leeds 100%', 'Roofers Leeds']);
      expect(await locations('q=roofers%20LEEDS')).toEqual(['Roofers Leeds']);
      // A typed % matches itself, not anything.
      expect(await locations('q=100%25')).toEqual(['Bakers Leeds 100%']);
      expect(await locations('q=%25')).toEqual(['Bakers Leeds 100%']);
      expect(await locations('status=completed')).toEqual(['Bakers Leeds 100%']);
      expect(await locations('status=running&q=roofers')).toEqual(['Roofers York', 'Roofers Leeds']);
      expect(await locations('status=running&q=leeds')).toEqual(['Roofers Leeds']);
      const today = new Date().toISOString().slice(0, 10);
      expect(await locations(`from=${today}&to=${today}`)).toHaveLength(3);
      expect(await locations('to=2020-01-01')).toEqual([]);
      const page = (await t.call('GET', '/api/lead-searches?q=leeds&page_size=1', undefined, user.token)).body;
      expect(page).toMatchObject({ total: 2, page: 1, page_size: 1 });

      for (const [query, detail] of [
        ['status=lost', 'status must be running, completed, failed or cancelled'],
        ['from=yesterday', 'from must be a date written YYYY-MM-DD'],
        ['to=2026-02-30', 'to must be a date written YYYY-MM-DD'],
        ['from=2026-02-02&to=2026-02-01', 'from must be on or before to'],
        [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
      ]) {
        const res = await t.call('GET', `/api/lead-searches?${query}`, undefined, user.token);
        expect(res.status, query).toBe(400);
        expect(res.body.detail, query).toContain(detail);
      }
    });

    it('exports CSV: spec columns, BOM and CRLF, formula cells neutralised, exact values back through a parser, no charge', async () => {
      const user = newUser(10);
      const id = (await start(user.token, { industry: 'Café & Bäckerei', location: 'São Paulo, SP', quantity: 6 })).body.id;
      await t.engine.waitForRequest(id);
      const hostile = [
        engineLead(71, { name: '=HYPERLINK("http://evil.example","click")', company: '+SUM(1,2)', city: '-2+3' }),
        engineLead(72, { name: '@cmd', company: 'Tab\tStart', city: 'Zürich' }),
        engineLead(73, { name: 'Ünïcødé 北京 🦷', company: 'Quotes "and", commas', email: 'o\'brien@example.com', website: 'javascript:alert(1)' }),
        engineLead(74, {
          phone: '+44 20 7946 0958', company: 'Plain Co', email_deliverability: 'deliverable', email_type: 'role', email_checked_at: '2026-11-24T10:00:01.000Z',
          email_mx_host: 'mx.brightsmiles74.example', email_smtp_code: 250, email_source: 'https://brightsmiles74.example/contact',
          email_fetched_at: '2026-11-24T10:00:00.000Z', phone_type: 'fixed_line', phone_display: '+44 20 7946 0958', phone_source: 'osm:node/74',
          address: '1 High St, Springfield', country: 'US',
          socials: [{ network: 'facebook', url: 'https://www.facebook.com/plainco' }, { network: 'instagram', url: 'https://www.instagram.com/plainco' }],
          people: [
            { name: 'Owner 74', role: 'owner', role_text: 'Inhaber', source: 'https://brightsmiles74.example/impressum' },
            { name: 'Mia Lang', role: 'manager', source: 'https://brightsmiles74.example/team' },
          ],
        }),
      ];
      await t.engine.leads(id, hostile);
      await t.engine.finish(id, 'done');
      await expect.poll(() => t.billing.balanceOf(user.id)).toBe(6);

      const res = await t.call('GET', `/api/lead-searches/${id}/export.csv`, undefined, user.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="leadforge-cafe-backerei-sao-paulo-sp-\d{4}-\d{2}-\d{2}\.csv"$/);
      const raw = Buffer.from(await (await fetch(`${t.svc.url}/api/lead-searches/${id}/export.csv`, { headers: { authorization: `Bearer ${user.token}` } })).arrayBuffer());
      expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(raw.toString('utf8')).toContain('\r\n');

      const rows: string[][] = parse(raw, { bom: true });
      expect(rows[0]).toEqual([
        'Name', 'Company', 'Email', 'Phone', 'Website', 'City', 'Address', 'Country', 'Social profiles', 'Role', 'Role as written',
        'Email deliverability', 'Email type', 'Email checked at', 'Email MX host', 'Email SMTP code', 'Email source', 'Email fetched at', 'Phone type', 'Phone source', 'Phone fetched at',
      ]);
      // No address, country, social profiles, people or verdicts.
      const noVerdicts = ['', '', '', '', '', '', '', '', '', '', '', '', '', '', ''];
      expect(rows.slice(1)).toEqual([
        ["'=HYPERLINK(\"http://evil.example\",\"click\")", "'+SUM(1,2)", 'hello71@brightsmiles71.example', '+15550100071', 'https://brightsmiles71.example/', "'-2+3", ...noVerdicts],
        ["'@cmd", 'Tab Start', 'hello72@brightsmiles72.example', '+15550100072', 'https://brightsmiles72.example/', 'Zürich', ...noVerdicts],
        ['Ünïcødé 北京 🦷', 'Quotes "and", commas', "o'brien@example.com", '+15550100073', '', 'Springfield', ...noVerdicts],
        [
          'Owner 74', 'Plain Co', 'hello74@brightsmiles74.example', "'+44 20 7946 0958", 'https://brightsmiles74.example/', 'Springfield',
          '1 High St, Springfield', 'US', 'https://www.facebook.com/plainco; https://www.instagram.com/plainco', 'Owner', 'Inhaber',
          'deliverable', 'role', '2026-11-24T10:00:01.000Z', 'mx.brightsmiles74.example', '250', 'https://brightsmiles74.example/contact', '2026-11-24T10:00:00.000Z', 'fixed_line', 'osm:node/74', '',
        ],
      ]);
      const shown = (await t.call('GET', `/api/lead-searches/${id}`, undefined, user.token)).body as { leads: Record<string, unknown>[] };
      expect(shown.leads.find((lead) => lead.company === 'Plain Co')).toMatchObject({
        address: '1 High St, Springfield', country: 'US', socials: [{ network: 'facebook', url: 'https://www.facebook.com/plainco' }, { network: 'instagram', url: 'https://www.instagram.com/plainco' }],
        email_deliverability: 'deliverable', email_type: 'role', email_checked_at: '2026-11-24T10:00:01.000Z', email_mx_host: 'mx.brightsmiles74.example', email_smtp_code: 250,
        email_source: 'https://brightsmiles74.example/contact', email_fetched_at: '2026-11-24T10:00:00.000Z',
        phone_type: 'fixed_line', phone_display: '+44 20 7946 0958', phone_source: 'osm:node/74',
        people: [
          { name: 'Owner 74', role: 'owner', role_text: 'Inhaber', source: 'https://brightsmiles74.example/impressum' },
          { name: 'Mia Lang', role: 'manager', source: 'https://brightsmiles74.example/team' },
        ],
      });
      // A lead whose pages named nobody has no `people` at all.
      expect(shown.leads.filter((lead) => lead.company !== 'Plain Co').some((lead) => 'people' in lead)).toBe(false);
      expect(t.billing.balanceOf(user.id)).toBe(6);
    });
  });
}

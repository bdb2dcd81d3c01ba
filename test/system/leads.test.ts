import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import { insufficientCreditsDetail, LEADS_EXPORT_COLUMNS, matchesFilter, NO_FILTER, verdictWord, type Lead } from '@leadforge/contracts';
import { bearer } from '../support/api.ts';
import { readFeed } from '../../services/leads/test/support/feedReader.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

const missing = ['billing', 'scraper', 'leads'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const waiting = missing.length ? ` (waiting: ${missing.join(', ')} not yet in stack/src/services.ts)` : '';

describe.skipIf(missing.length > 0)(`lead generation end to end through the gateway, against the fixture web${waiting}`, () => {
  let product: ProductAround;
  let seq = 0;

  beforeAll(async () => {
    product = await startProductAround();
  }, 240_000);
  afterAll(async () => product?.close());

  const newUser = async (credits: number) => {
    const user = await product.register(`leads-e2e-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };
  const api = (...args: Parameters<ProductAround['api']>) => product.api(...args);
  const feed = (id: string, token: string, headers: Record<string, string> = {}) =>
    readFeed(`${product.stack.url}/api/lead-searches/${id}/events`, { ...bearer(token), ...headers }, { until: (m) => m.event === 'finished', timeoutMs: 60_000 });

  it('25 requested: 25 delivered live over SSE, 25 credits charged, CSV of the 25', async () => {
    product.setSource('full');
    const user = await newUser(100);
    const started = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 25 }, bearer(user.token));
    expect(started.status).toBe(201);
    const { messages } = await feed(started.body.id, user.token);
    const leads = messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads);
    const finished = messages.at(-1)!;
    expect(leads).toHaveLength(25);
    // Streamed, not delivered at the end: the first lead came in a batch before the last one.
    expect(messages.filter((m) => m.event === 'leads').length).toBeGreaterThan(1);
    expect(finished.data).toMatchObject({ status: 'completed', stats: { total_found: 25, credits_used: 25, remaining_credits: 75 } });
    expect(await product.balance(user.token)).toBe(75);

    const csv = await fetch(`${product.stack.url}/api/lead-searches/${started.body.id}/export.csv`, { headers: bearer(user.token) });
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="leadforge-dentists-london-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows: string[][] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true });
    expect(rows[0]).toEqual(LEADS_EXPORT_COLUMNS.map(({ header }) => header));
    expect(rows.slice(1).map((r) => r[1])).toEqual(leads.map((l: { company: string }) => l.company));
    expect(await product.balance(user.token)).toBe(75);
  }, 90_000);

  it('exports agree: CSV and Excel carry the address, country and social profiles JSON has, with its verdict words; a selection exports its leads only', async () => {
    product.setSource('full');
    const user = await newUser(30);
    const { body: { leads } } = await api('POST', '/api/generate-leads', { industry: 'Florists', location: 'London', quantity: 20 }, bearer(user.token));
    const [{ id }] = (await api('GET', '/api/lead-searches?q=florists&status=completed', undefined, bearer(user.token))).body.searches;
    const download = async (format: string, query = '') => {
      const res = await fetch(`${product.stack.url}/api/lead-searches/${id}/export.${format}${query}`, { headers: bearer(user.token) });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const json = JSON.parse((await download('json')).toString('utf8')) as { leads: Lead[] };
    expect(json.leads).toEqual(leads);
    // What a spreadsheet row must say for each JSON lead, column by column.
    const expected = json.leads.map((lead) => Object.fromEntries(LEADS_EXPORT_COLUMNS.map(({ header, key }) => {
      const decisionMaker = lead.people?.[0];
      const value = key === 'socials' ? (lead.socials ?? []).map((social) => social.url).join('; ')
        : key === 'role' ? (decisionMaker ? verdictWord(decisionMaker.role) : '')
          : key === 'role_text' ? decisionMaker?.role_text ?? '' : lead[key] ?? '';
      return [header, String(value)];
    })));
    expect(json.leads.some((lead) => lead.address || lead.country)).toBe(true);
    expect(json.leads.some((lead) => lead.socials?.length)).toBe(true);
    // The people a site names travel with the lead; its decision-maker is the Name.
    expect(json.leads.some((lead) => lead.people?.length && lead.people[0].name === lead.name)).toBe(true);

    const csv: Record<string, string>[] = parse(await download('csv'), { bom: true, columns: true });
    expect(csv).toEqual(expected);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await download('xlsx') as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Leads')!;
    const excel = json.leads.map((_, i) => Object.fromEntries(LEADS_EXPORT_COLUMNS.map(({ header }, c) => [header, String(sheet.getRow(i + 2).getCell(c + 1).value ?? '')])));
    expect(excel).toEqual(expected);

    // A lead's name is a person the business's pages name, or empty: never the company again.
    for (const lead of json.leads) expect(lead.name).not.toBe(lead.company);
    expect(json.leads.some((lead) => lead.name)).toBe(true);

    const chosen: Record<string, string>[] = parse(await download('csv', '?leads=3,1'), { bom: true, columns: true });
    expect(chosen.map((row) => row.Company)).toEqual([json.leads[0].company, json.leads[2].company]);
    const chosenJson = JSON.parse((await download('json', '?leads=2')).toString('utf8')) as { leads: Lead[] };
    expect(chosenJson.leads).toEqual([json.leads[1]]);
    const bad = await api('GET', `/api/lead-searches/${id}/export.csv?leads=0,x`, undefined, bearer(user.token));
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('leads must be lead numbers');
  }, 90_000);

  it('a filtered export holds the leads the filter shows, and its file name says which part of the search it is', async () => {
    product.setSource('full');
    const user = await newUser(30);
    const { body: { leads } } = await api('POST', '/api/generate-leads', { industry: 'Bakery', location: 'Lindenfeld', quantity: 20 }, bearer(user.token));
    const [{ id }] = (await api('GET', '/api/lead-searches?q=bakery&status=completed', undefined, bearer(user.token))).body.searches;
    const download = async (format: string, query: string) => {
      const res = await fetch(`${product.stack.url}/api/lead-searches/${id}/export.${format}?${query}`, { headers: bearer(user.token) });
      expect(res.status).toBe(200);
      return { name: /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1], body: Buffer.from(await res.arrayBuffer()) };
    };
    expect(leads).toHaveLength(20);
    // A word of a company, as a user types it into the table's filter (in capitals), and "Has email":
    // the first word that shows some of the leads, not all of them.
    const shownBy = (word: string) => (leads as Lead[]).filter((lead) => matchesFilter(lead, { ...NO_FILTER, text: word, hasEmail: true }));
    const word = (leads as Lead[]).flatMap((lead) => lead.company.split(/\s+/)).map((w) => w.toUpperCase())
      .find((w) => shownBy(w).length > 0 && shownBy(w).length < 20);
    expect(word).toBeDefined();
    const shown = shownBy(word!);

    const csv = await download('csv', `q=${encodeURIComponent(word!)}&has_email=true`);
    expect(csv.name).toMatch(new RegExp(`^leadforge-bakery-lindenfeld-\\d{4}-\\d{2}-\\d{2}-filtered-${shown.length}-of-20\\.csv$`));
    const rows: Record<string, string>[] = parse(csv.body, { bom: true, columns: true });
    expect(rows.map((row) => row.Company)).toEqual(shown.map((lead) => lead.company));
    for (const row of rows) expect(row.Email).not.toBe('');
    const json = await download('json', `q=${encodeURIComponent(word!)}&has_email=true`);
    expect(json.name).toMatch(new RegExp(`-filtered-${shown.length}-of-20\\.json$`));
    expect((JSON.parse(json.body.toString('utf8')) as { leads: Lead[] }).leads).toEqual(shown);

    // Nothing passes: an empty file that says 0 of 20, not all of them.
    const none = await download('csv', 'q=no-such-business-anywhere');
    expect(none.name).toMatch(/-filtered-0-of-20\.csv$/);
    expect(parse(none.body, { bom: true })).toHaveLength(1);

    const selected = await download('xlsx', 'leads=4,2');
    expect(selected.name).toMatch(/^leadforge-bakery-lindenfeld-\d{4}-\d{2}-\d{2}-selected-2\.xlsx$/);
    const all = await download('csv', '');
    expect(all.name).toMatch(/^leadforge-bakery-lindenfeld-\d{4}-\d{2}-\d{2}\.csv$/);

    const bad = await api('GET', `/api/lead-searches/${id}/export.csv?email_deliverability=great`, undefined, bearer(user.token));
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('email_deliverability must be one of deliverable, undeliverable, accept_all, unknown');
    const notBoolean = await api('GET', `/api/lead-searches/${id}/export.csv?has_phone=maybe`, undefined, bearer(user.token));
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.detail).toContain('has_phone must be true or false');
  }, 90_000);

  it('50 requested where only 12 exist: 12 charged, the other 38 given back', async () => {
    product.setSource('twelve');
    const user = await newUser(60);
    const res = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Twelveton', quantity: 50 }, bearer(user.token));
    expect(res.status).toBe(200);
    expect(res.body.leads).toHaveLength(12);
    expect(res.body.stats).toMatchObject({ total_found: 12, credits_used: 12, remaining_credits: 48 });
    expect(await product.balance(user.token)).toBe(48);
    const history = await api('GET', '/api/lead-searches', undefined, bearer(user.token));
    expect(history.body.searches[0]).toMatchObject({ quantity: 50, leads_count: 12, credits_used: 12, status: 'completed' });
  }, 90_000);

  it('the source failing: nothing charged, why said (test/system/searchFailures.test.ts has every reason)', async () => {
    product.setSource('down');
    try {
      const user = await newUser(20);
      const res = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Downtown Nowhere', quantity: 10 }, bearer(user.token));
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 'provider_unreachable', detail: 'The business directory could not be reached. Nothing was charged; please try again in a few minutes.' });
      expect(await product.balance(user.token)).toBe(20);
      const history = await api('GET', '/api/lead-searches', undefined, bearer(user.token));
      expect(history.body.searches[0]).toMatchObject({ status: 'failed', error_code: 'provider_unreachable', credits_used: 0, leads_count: 0 });
    } finally {
      product.setSource('full');
    }
  }, 120_000);

  it('two concurrent 10-lead searches with 15 credits: one runs, the other gets the 402 detail; never below zero', async () => {
    product.setSource('full');
    const user = await newUser(15);
    const body = { industry: 'Dentists', location: 'London', quantity: 10 };
    let lowest = Infinity;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        lowest = Math.min(lowest, await product.balance(user.token));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const [a, b] = await Promise.all([
      api('POST', '/api/generate-leads', body, bearer(user.token)),
      api('POST', '/api/generate-leads', body, bearer(user.token)),
    ]);
    watching = false;
    await watcher;
    expect([a.status, b.status].sort()).toEqual([200, 402]);
    expect([a, b].find((r) => r.status === 402)!.body.detail).toBe(insufficientCreditsDetail(5, 10));
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(await product.balance(user.token)).toBe(5);
  }, 90_000);

  it('another user\'s search is 404; bad inputs are 400 with a detail, never 5xx', async () => {
    product.setSource('full');
    const owner = await newUser(10);
    const other = await newUser(10);
    const id = (await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 1 }, bearer(owner.token))).body.id;
    for (const [method, path] of [['GET', `/api/lead-searches/${id}`], ['GET', `/api/lead-searches/${id}/events`], ['GET', `/api/lead-searches/${id}/export.csv`], ['DELETE', `/api/lead-searches/${id}`]]) {
      const res = await api(method, path, undefined, bearer(other.token));
      expect({ method, path, status: res.status, detail: res.body.detail }).toEqual({ method, path, status: 404, detail: 'Search not found' });
    }
    const big = 'x'.repeat(10 * 1024);
    const bad: [unknown, string][] = [
      [{ industry: 'Dentists', location: 'London', quantity: 0 }, 'Quantity must be a whole number from 1 to 200'],
      [{ industry: 'Dentists', location: 'London', quantity: 201 }, 'Quantity must be a whole number from 1 to 200'],
      [{ industry: 'Dentists', location: 'London', quantity: -1 }, 'Quantity must be a whole number from 1 to 200'],
      [{ industry: 'Dentists', location: 'London', quantity: 'abc' }, 'Quantity must be a whole number from 1 to 200'],
      [{ location: 'London' }, 'Please fill in both industry and location fields'],
      [{ industry: 'Dentists' }, 'Please fill in both industry and location fields'],
      [{ industry: big, location: 'London' }, 'Industry must be at most 100 characters'],
      [{ industry: 'Dentists', location: big }, 'Location must be at most 200 characters'],
    ];
    for (const path of ['/api/generate-leads', '/api/lead-searches']) {
      for (const [body, detail] of bad) {
        const res = await api('POST', path, body, bearer(other.token));
        expect({ path, status: res.status, detail: res.body.detail }).toEqual({ path, status: 400, detail });
      }
    }
    expect(await product.balance(other.token)).toBe(10);
    expect((await api('GET', `/api/lead-searches/${id}`)).status).toBe(401);
  }, 90_000);

  it('resumes the live feed through the gateway after Last-Event-ID, and the admin activity log shows the search', async () => {
    product.setSource('full');
    const user = await newUser(10);
    const id = (await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 10 }, bearer(user.token))).body.id;
    const all = await feed(id, user.token);
    const resumed = await feed(id, user.token, { 'last-event-id': String(all.messages[1].id) });
    expect(resumed.messages.map((m) => m.id)).toEqual(all.messages.slice(2).map((m) => m.id));

    const admin = await product.api('POST', '/api/auth/login', { email: 'leads-admin@example.com', password: 'secret123' });
    await expect.poll(async () => {
      const logs = await api('GET', '/api/admin/activity-logs', undefined, bearer(admin.body.access_token));
      return logs.body.logs?.find((l: { details?: { search_id?: string } }) => l.details?.search_id === id)?.details;
    }, { timeout: 10_000 }).toMatchObject({ results_count: 10, credits_used: 10 });
  }, 90_000);
});

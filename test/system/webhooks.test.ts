import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import { bearer } from '../support/api.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

const missing = ['billing', 'scraper', 'leads'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const waiting = missing.length ? ` (waiting: ${missing.join(', ')} not yet in stack/src/services.ts)` : '';

type Verify = (rawBody: string, header: string, secret: string, toleranceSeconds?: number) => boolean;

/** The signature recipe exactly as docs/public-api.md gives it to users. */
async function documentedVerifier(): Promise<Verify> {
  const doc = fs.readFileSync(new URL('../../docs/public-api.md', import.meta.url), 'utf8');
  const recipe = doc.slice(doc.indexOf('### Verifying the signature')).match(/```js\n([\s\S]*?)```/)![1];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-recipe-')), 'verify.mjs');
  fs.writeFileSync(file, recipe);
  return (await import(pathToFileURL(file).href)).verifyLeadforgeSignature;
}

describe.skipIf(missing.length > 0)(`webhooks and exports end to end through the gateway, loopback receivers${waiting}`, () => {
  let product: ProductAround;
  let receiver: WebhookReceiver;
  let verify: Verify;
  let seq = 0;

  beforeAll(async () => {
    [product, receiver, verify] = await Promise.all([
      startProductAround({
        env: {
          // The receivers are on loopback, which the SSRF guard refuses outside tests.
          LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
          LEADS_WEBHOOK_RETRY_BASE_MS: '300',
          LEADS_WEBHOOK_RETRY_FOR_MS: '4000',
          LEADS_WEBHOOK_TIMEOUT_MS: '1000',
          LEADS_WEBHOOK_POLL_MS: '100',
        },
      }),
      startWebhookReceiver(),
      documentedVerifier(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await receiver?.close();
  });

  const api = (...args: Parameters<ProductAround['api']>) => product.api(...args);
  const newUser = async (credits: number) => {
    const user = await product.register(`webhooks-e2e-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };
  const register = async (token: string, url: string, events = ['lead_search.completed', 'lead_search.failed']) => {
    const res = await api('POST', '/api/webhooks', { url, events }, bearer(token));
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string; url: string; events: string[] };
  };
  const deliveries = async (token: string, id: string) => (await api('GET', `/api/webhooks/${id}/deliveries`, undefined, bearer(token))).body.deliveries;

  it('registers an endpoint (secret once), checks the URL with the SSRF guard, and keeps other users out', async () => {
    const user = await newUser(0);
    const other = await newUser(0);
    const created = await register(user.token, receiver.url, ['lead_search.completed']);
    expect(created).toMatchObject({ url: receiver.url, events: ['lead_search.completed'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await api('GET', '/api/webhooks', undefined, bearer(user.token));
    expect(list.body.webhooks).toEqual([{ id: created.id, url: receiver.url, events: ['lead_search.completed'], created_at: expect.any(String) }]);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);

    const refused: [unknown, RegExp][] = [
      [{ url: 'ftp://127.0.0.1/x', events: ['lead_search.completed'] }, /Only http and https/],
      [{ url: 'http://user:pw@127.0.0.1/x', events: ['lead_search.completed'] }, /embedded credentials/],
      [{ url: 'http://169.254.169.254/latest/meta-data/', events: ['lead_search.completed'] }, /cloud metadata address/],
      [{ url: 'http://[::ffff:169.254.169.254]/', events: ['lead_search.completed'] }, /cloud metadata address/],
      [{ url: 'not a url', events: ['lead_search.completed'] }, /Not a valid URL/],
      [{ url: receiver.url, events: [] }, /events must list/],
      [{ url: receiver.url, events: ['lead_search.started'] }, /events must list/],
      [{ url: receiver.url }, /required/],
    ];
    for (const [body, detail] of refused) {
      const res = await api('POST', '/api/webhooks', body, bearer(user.token));
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.detail).toMatch(detail);
    }

    for (const [method, suffix] of [['GET', '/deliveries'], ['POST', '/test'], ['DELETE', '']] as const) {
      for (const id of [created.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        const res = await api(method, `/api/webhooks/${id}${suffix}`, undefined, bearer(other.token));
        expect({ method, suffix, id, status: res.status, detail: res.body.detail }).toEqual({ method, suffix, id, status: 404, detail: 'Webhook not found' });
      }
    }
    expect((await api('GET', '/api/webhooks')).status).toBe(401);

    expect((await api('DELETE', `/api/webhooks/${created.id}`, undefined, bearer(user.token))).status).toBe(204);
    expect((await api('GET', '/api/webhooks', undefined, bearer(user.token))).body.webhooks).toEqual([]);
  }, 60_000);

  it('a user\'s data export lists their endpoints (never the secret); deleting the account erases them', async () => {
    const user = await newUser(0);
    const created = await register(user.token, `${receiver.url}?account=1`);
    const exported = await (await fetch(`${product.stack.url}/api/account/export`, { headers: bearer(user.token) })).json();
    expect(exported.leads.webhooks).toEqual([{ id: created.id, url: created.url, events: created.events, created_at: expect.any(String) }]);
    expect(JSON.stringify(exported)).not.toContain(created.secret);
    expect((await api('DELETE', '/api/account', { password: 'secret123' }, bearer(user.token))).status).toBe(200);
    const leadsDb = product.stack.services.find((s) => s.name === 'leads')!.ctx.db;
    await expect.poll(async () => (await leadsDb('webhook_endpoints').where({ user_id: user.id })).length, { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it('a completed search: one signed delivery the documented recipe verifies, with links that serve JSON and Excel exports', async () => {
    product.setSource('full');
    const user = await newUser(20);
    const endpoint = await register(user.token, receiver.url, ['lead_search.completed']);
    const before = receiver.received.length;
    const search = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'London', quantity: 5 }, bearer(user.token));
    expect(search.status).toBe(200);
    const [hook] = (await receiver.waitFor(before + 1)).slice(before);

    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['leadforge-event']).toBe('lead_search.completed');
    expect(hook.headers['leadforge-delivery']).toBe(hook.body.delivery_id);
    const signature = String(hook.headers['leadforge-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(hook.rawBody, signature, endpoint.secret)).toBe(true);
    expect(verify(hook.rawBody.replace('"Dentists"', '"Dentist5"'), signature, endpoint.secret)).toBe(false);
    expect(verify(hook.rawBody, signature, `${endpoint.secret}x`)).toBe(false);

    const history = await api('GET', '/api/lead-searches', undefined, bearer(user.token));
    const id = history.body.searches[0].id;
    expect(hook.body).toMatchObject({
      event: 'lead_search.completed',
      data: {
        id, industry: 'Dentists', location: 'London', quantity: 5, status: 'completed', leads_count: 5, credits_used: 5,
        stats: { total_found: 5, credits_used: 5, remaining_credits: 15 },
        links: { search: expect.stringMatching(new RegExp(`/api/lead-searches/${id}$`)) },
      },
    });
    const link = (name: string) => new URL(hook.body.data.links[name]).pathname;
    expect(link('export_json')).toBe(`/api/lead-searches/${id}/export.json`);

    await expect.poll(async () => deliveries(user.token, endpoint.id), { timeout: 10_000 }).toEqual([{
      delivery_id: hook.body.delivery_id, event: 'lead_search.completed', attempt: 1, attempted_at: expect.any(String),
      status_code: 200, error: null, duration_ms: expect.any(Number), delivery_status: 'delivered',
    }]);

    const json = await fetch(`${product.stack.url}${link('export_json')}`, { headers: bearer(user.token) });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="leadforge-dentists-london-\d{4}-\d{2}-\d{2}\.json"$/);
    const exported = await json.json();
    expect(exported.search).toMatchObject({ id, status: 'completed', leads_count: 5, stats: { total_found: 5 } });
    expect(exported.leads.map((l: { company: string }) => l.company)).toEqual(search.body.leads.map((l: { company: string }) => l.company));

    const xlsx = await fetch(`${product.stack.url}${link('export_xlsx')}`, { headers: bearer(user.token) });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers.get('content-disposition')).toMatch(/filename="leadforge-dentists-london-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.getWorksheet('Leads')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Name');
    expect(sheet.getColumn(2).values.slice(2)).toEqual(search.body.leads.map((l: { company: string }) => l.company));

    // What a script does with the links: fetch them with an API key; the webhook routes take the key too.
    const key = await api('POST', '/api/api-keys', { name: 'webhook receiver' }, bearer(user.token));
    expect(key.status).toBe(201);
    const byKey = await fetch(hook.body.data.links.export_xlsx.replace(/^https?:\/\/[^/]+/, product.stack.url), { headers: { 'x-api-key': key.body.key } });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect((await api('GET', '/api/webhooks', undefined, { 'x-api-key': key.body.key })).body.webhooks.map((w: { id: string }) => w.id)).toEqual([endpoint.id]);

    // Free re-download, owner only.
    expect(await product.balance(user.token)).toBe(15);
    const other = await newUser(0);
    for (const format of ['json', 'xlsx']) {
      const res = await api('GET', `/api/lead-searches/${id}/export.${format}`, undefined, bearer(other.token));
      expect({ format, status: res.status, detail: res.body.detail }).toEqual({ format, status: 404, detail: 'Search not found' });
      expect((await api('GET', `/api/lead-searches/${id}/export.${format}`)).status).toBe(401);
    }
  }, 90_000);

  it('a failed search goes to endpoints listening for failures only; non-2xx and timeouts are retried with the same delivery id, then delivered', async () => {
    product.setSource('down');
    try {
      const user = await newUser(10);
      const failures = await register(user.token, receiver.url, ['lead_search.failed']);
      const successes = await register(user.token, `${receiver.url}?only=completed`, ['lead_search.completed']);
      const before = receiver.received.length;
      receiver.answer(500, 'hang', 503);
      const res = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Downtown Nowhere', quantity: 3 }, bearer(user.token));
      expect(res.status).toBe(502);

      const hooks = (await receiver.waitFor(before + 4)).slice(before);
      expect(new Set(hooks.map((h) => h.headers['leadforge-delivery'])).size).toBe(1);
      expect(hooks.map((h) => h.body.event)).toEqual(Array(4).fill('lead_search.failed'));
      expect(hooks[0].body.data).toMatchObject({ status: 'failed', credits_used: 0, error: expect.stringContaining('could not be reached') });
      // Each retry waits longer than the one before (300 ms, 600 ms, 1200 ms here).
      const gaps = hooks.slice(1).map((h, i) => h.at - hooks[i].at);
      expect(gaps[2]).toBeGreaterThan(gaps[0]);
      for (const hook of hooks) expect(verify(hook.rawBody, String(hook.headers['leadforge-signature']), failures.secret)).toBe(true);

      await expect.poll(async () => (await deliveries(user.token, failures.id)).map((d: { attempt: number; status_code: number | null; error: string | null; delivery_status: string }) =>
        [d.attempt, d.status_code, d.error, d.delivery_status]), { timeout: 10_000 }).toEqual([
        [4, 200, null, 'delivered'],
        [3, 503, 'The endpoint answered 503', 'delivered'],
        [2, null, 'No answer within 1000 ms', 'delivered'],
        [1, 500, 'The endpoint answered 500', 'delivered'],
      ]);
      expect(await deliveries(user.token, successes.id)).toEqual([]);
    } finally {
      product.setSource('full');
    }
  }, 90_000);

  it('a receiver that never accepts: retried until the retry window ends, then the delivery is failed; the test event is sent on demand', async () => {
    const user = await newUser(0);
    const endpoint = await register(user.token, `${receiver.url}?down=1`);
    receiver.answerAlways(500);
    try {
      const queued = await api('POST', `/api/webhooks/${endpoint.id}/test`, undefined, bearer(user.token));
      expect(queued.status).toBe(202);
      // At most 3 test events wait at once, so the action cannot be used to flood a URL.
      for (const status of [202, 202, 429]) expect((await api('POST', `/api/webhooks/${endpoint.id}/test`, undefined, bearer(user.token))).status).toBe(status);
      const ofTheFirst = async () => (await deliveries(user.token, endpoint.id)).filter((a: { delivery_id: string }) => a.delivery_id === queued.body.delivery_id);
      await expect.poll(async () => (await ofTheFirst())[0]?.delivery_status, { timeout: 15_000 }).toBe('failed');
      const attempts = await ofTheFirst();
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      expect(attempts.every((a: { status_code: number }) => a.status_code === 500)).toBe(true);
      // The last attempt is made when the window (4 s here) ends, not before.
      const first = Date.parse(attempts.at(-1).attempted_at);
      expect(Date.parse(attempts[0].attempted_at) - first).toBeGreaterThanOrEqual(3500);
    } finally {
      receiver.answerAlways(undefined);
    }
    const sent = receiver.received.filter((h) => h.body?.event === 'webhook.test');
    expect(sent.at(-1)!.body.data).toMatchObject({ webhook_id: endpoint.id });
    expect(verify(sent.at(-1)!.rawBody, String(sent.at(-1)!.headers['leadforge-signature']), endpoint.secret)).toBe(true);
  }, 60_000);
});

import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, screenshot, SHOTS_DIR } from '../support/browser.ts';
import { bearer } from '../support/api.ts';
import { ADMIN_EMAIL, startProductAround, type ProductAround } from '../support/productAround.ts';

describe.skipIf(!chromiumAvailable)('the admin panel\'s Parked work tab (needs Debian chromium at /usr/bin/chromium)', () => {
  let product: ProductAround;
  let browser: Browser;
  let page: Page;
  let receiver: http.Server;
  let receiverUrl = '';
  /** The webhook receiver answers 500 until the test "fixes" it. */
  let receiverFixed = false;
  let userToken = '';
  let webhookId = '';
  const deadLetterId = crypto.randomUUID();

  const url = (to: string) => `${product.stack.url}${to}`;
  const dbOf = (name: string) => product.stack.services.find((service) => service.name === name)!.ctx.db;
  const rows = () => page.getByTestId('parked-work').locator('tbody tr');
  const banner = (text: string | RegExp) => page.locator('.admin-notices').getByRole('status').filter({ hasText: text });
  const deliveryStatus = async () => (await product.api('GET', `/api/webhooks/${webhookId}/deliveries`, undefined, bearer(userToken))).body.deliveries[0]?.delivery_status;

  beforeAll(async () => {
    receiver = http.createServer((_req, res) => { res.writeHead(receiverFixed ? 200 : 500).end(); });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    [product, browser] = await Promise.all([
      // Deliveries to loopback, given up on after a second: a failed delivery is parked at once.
      startProductAround({ env: { LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', LEADS_WEBHOOK_POLL_MS: '100', LEADS_WEBHOOK_RETRY_FOR_MS: '1000', LEADS_WEBHOOK_RETRY_BASE_MS: '100' } }),
      launchBrowser(),
    ]);
    userToken = (await product.register('hooks@example.com')).token;
    webhookId = (await product.api('POST', '/api/webhooks', { url: receiverUrl, events: ['lead_search.completed'] }, bearer(userToken))).body.id;
    expect((await product.api('POST', `/api/webhooks/${webhookId}/test`, undefined, bearer(userToken))).status).toBe(202);
    await vi.waitFor(async () => expect(await deliveryStatus()).toBe('failed'), { timeout: 30_000, interval: 100 });

    // An event billing's outbox could not publish, and one a contact consumer could not handle.
    const envelope = (id: string, type: string) => JSON.stringify({ id, type, version: 1, occurred_at: new Date().toISOString(), key: 'k1', data: {} });
    const outboxId = crypto.randomUUID();
    await dbOf('billing')('kit_outbox').insert({ event_id: outboxId, topic: 'parked-work-browser-check', key: 'k1', envelope: envelope(outboxId, 'credits.changed'), parked_at: new Date(Date.now() - 3 * 3600_000), last_error: 'The broker refused the message: it is larger than max.message.bytes' });
    await dbOf('contact')('kit_dead_letters').insert({ consumer: 'contact-inbox-check', topic: 'parked-work-browser-check', event_id: deadLetterId, envelope: envelope(deadLetterId, 'contact.submitted'), error: 'Error: the mail server was down\n    at send (mailer.ts:12)', attempts: 40 });

    const admin = (await product.api('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: 'secret123' })).body.access_token;
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(url('/login'));
    await page.evaluate((token) => localStorage.setItem('token', token), admin);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await product?.close();
    receiver?.close();
  });

  it('shows loading, then every service\'s parked work with where it is, its age and its last error', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route((u) => u.pathname === '/api/admin/parked-work', async (route) => { await held; await route.continue(); }, { times: 1 });
    await page.goto(url('/admin?tab=parked-work'));
    await page.getByText('Loading parked work...').waitFor();
    release();
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(3);
    // Oldest first: billing's outbox event was parked three hours ago.
    expect(await rows().allInnerTexts()).toEqual([
      expect.stringMatching(/^billing\s+Outbox\s+credits\.changed\s+\d+\s+–\s+3 h ago\s+The broker refused the message/),
      expect.stringMatching(/^leads\s+Queue\s+webhooks\s+\S+\s+\d+\s+(just now|\d+ min ago)\s+The endpoint answered 500\s+Replay$/),
      expect.stringMatching(/^contact\s+Dead letter\s+contact\.submitted \(contact-inbox-check\)\s+\S+\s+40\s+(just now|\d+ min ago)\s+Error: the mail server was down\s+Replay$/i),
    ]);
    expect(await page.getByRole('heading', { name: 'Parked work' }).innerText()).toBe('Parked work (3)');
    expect(await page.getByRole('list', { name: 'Parked work by service' }).innerText()).toBe('billing 1 · outbox 1\nleads 1 · queue 1\ncontact 1 · dead letter 1');
    await screenshot(page, 'admin-parked-work');
  }, 60_000);

  it('filters by kind, and replays a failed webhook delivery after confirming: the endpoint gets it', async () => {
    await page.getByLabel('Kind').selectOption('queue');
    await expect.poll(() => rows().count()).toBe(1);
    receiverFixed = true;
    await rows().first().getByRole('button', { name: 'Replay' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Replay this queue?' });
    expect(await dialog.innerText()).toContain('becomes due again with its attempts reset');
    await page.screenshot({ path: path.join(SHOTS_DIR, 'admin-parked-work-confirm.png') });
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await banner('1 piece of work in leads\'s webhooks will run again').waitFor();
    await expect.poll(deliveryStatus, { timeout: 15_000 }).toBe('delivered');
    await expect.poll(() => page.getByText('Nothing parked matches these filters').count()).toBe(1);
  }, 60_000);

  it('cancelling a replay leaves the work parked; replaying the rest empties the view', async () => {
    await page.getByLabel('Kind').selectOption('');
    await expect.poll(() => rows().count()).toBe(2);
    await rows().first().getByRole('button', { name: 'Replay' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await rows().count()).toBe(2);

    for (const expected of ['billing\'s outbox', 'contact\'s dead letters']) {
      await rows().first().getByRole('button', { name: 'Replay' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Replay' }).click();
      await banner(`1 piece of work in ${expected} will run again`).waitFor();
    }
    await page.getByText('Nothing is parked: every queue, outbox and consumer is keeping up').waitFor();
    expect(await dbOf('contact')('kit_dead_letters').where({ event_id: deadLetterId }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await screenshot(page, 'admin-parked-work-empty');
  }, 60_000);

  it('says so when the view cannot be loaded, and tries again', async () => {
    await page.route((u) => u.pathname === '/api/admin/parked-work', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The admin service is restarting' }) }), { times: 1 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The admin service is restarting' });
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Nothing is parked').waitFor();
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import type { Lead } from '@leadforge/contracts';
import { bearer } from '../support/api.ts';
import { readFeed } from '../../services/leads/test/support/feedReader.ts';
import { MAIL_BEHAVIOURS, startMailWorld, type MailDomain, type MailWorld } from '../support/mailWorld.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

const missing = ['billing', 'scraper', 'leads'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const waiting = missing.length ? ` (waiting: ${missing.join(', ')} not yet in stack/src/services.ts)` : '';

// The fixture sites' domains (site-NNN.fixture.test) take each behaviour of the mail world in turn;
// at the knowing ones, info@ and hello@ exist and office@ and anna.berger@ do not.
function mailOf(domain: string): MailDomain | undefined {
  const site = /^site-(\d+)\.fixture\.test$/.exec(domain);
  if (!site) return domain === 'gmail.com' ? { behaviour: 'mailbox', mailboxes: [] } : undefined;
  return { behaviour: MAIL_BEHAVIOURS[Number(site[1]) % MAIL_BEHAVIOURS.length], mailboxes: ['info', 'hello'] };
}

/** What the product must say of an address in this world. */
function expected(email: string): Lead['email_deliverability'] {
  const [local, domain] = email.split('@');
  const mail = mailOf(domain);
  if (!mail) return 'undeliverable';
  if (mail.behaviour === 'accept_all') return 'accept_all';
  if (mail.behaviour === 'mailbox' || mail.behaviour === 'greylist_once') return mail.mailboxes?.includes(local) ? 'deliverable' : 'undeliverable';
  return 'unknown';
}

describe.skipIf(missing.length > 0)(`email verification end to end through the gateway, against a mail world on loopback${waiting}`, () => {
  let world: MailWorld;
  let product: ProductAround;

  beforeAll(async () => {
    world = await startMailWorld(mailOf, { slowMs: 3000 });
    product = await startProductAround({ sites: 36, env: world.env() });
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await world?.close();
  });

  it('labels every delivered email deliverable, undeliverable, accept_all or unknown as its mail server answers, with its type, time and evidence', async () => {
    const user = await product.register('verify-e2e@example.com');
    await product.setCredits(user.id, user.token, 40);
    const started = await product.api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 30 }, bearer(user.token));
    expect(started.status).toBe(201);
    await readFeed(`${product.stack.url}/api/lead-searches/${started.body.id}/events`, bearer(user.token), { until: (m) => m.event === 'finished', timeoutMs: 120_000 });
    const search = await product.api('GET', `/api/lead-searches/${started.body.id}`, undefined, bearer(user.token));
    const leads = (search.body.leads as Lead[]).filter((lead) => lead.email);
    expect(leads.length).toBeGreaterThan(10);
    for (const lead of leads) {
      expect({ email: lead.email, deliverability: lead.email_deliverability }).toEqual({ email: lead.email, deliverability: expected(lead.email) });
      expect(lead.email_checked_at).toEqual(expect.any(String));
      expect(lead.email_type).toMatch(/^(role|personal|free_mail|disposable)$/);
    }
    const seen = new Set(leads.map((lead) => lead.email_deliverability));
    expect([...seen].sort()).toEqual(['accept_all', 'deliverable', 'undeliverable', 'unknown']);
    // info@ of a business whose server accepts it: deliverable, and a role address.
    expect(leads.find((lead) => lead.email.startsWith('info@') && lead.email_deliverability === 'deliverable')).toMatchObject({ email_type: 'role', email_smtp_code: 250, email_mx_host: expect.stringMatching(/\.mail\.test$/) });
    expect(leads.find((lead) => lead.email_deliverability === 'undeliverable' && lead.email.endsWith('.fixture.test'))).toMatchObject({ email_smtp_code: 550 });

    const csv = await fetch(`${product.stack.url}/api/lead-searches/${started.body.id}/export.csv?email_deliverability=deliverable`, { headers: bearer(user.token) });
    const rows: Record<string, string>[] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true, columns: true });
    expect(rows.length).toBe(leads.filter((lead) => lead.email_deliverability === 'deliverable').length);
    expect(rows.every((row) => row['Email deliverability'] === 'deliverable' && row['Email SMTP code'] === '250' && row['Email checked at'])).toBe(true);
  }, 180_000);
});

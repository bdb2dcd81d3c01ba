import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/api.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';
import { waitForMail } from '@leadforge/testing';

interface ApiLead { company: string; email: string; email_fetched_at?: string; [field: string]: unknown }

describe('searches of an area after one of its contacts opted out, through the gateway (issue 23)', () => {
  let product: ProductAround;
  let seq = 0;
  let clockFile = '';
  /** Moves the services' clock (CLOCK_FILE) ahead of the machine's: time passes without waiting. */
  const clockAhead = (ms: number) => fs.writeFile(clockFile, String(ms));

  beforeAll(async () => {
    clockFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'leadforge-opt-out-clock-')), 'offset');
    product = await startProductAround({ env: { CLOCK_FILE: clockFile } });
    product.setSource('twelve');
  }, 240_000);
  afterAll(async () => product?.close());

  const newUser = async (credits: number) => {
    const user = await product.register(`opt-out-searches-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };
  const generate = (token: string, location = 'Twelveton') => product.api('POST', '/api/generate-leads', { industry: 'Dentists', location, quantity: 12 }, bearer(token));

  const confirmLinkOf = async (email: string) => {
    const mail = await waitForMail(path.join(product.dataDir, 'mail'), email.toLowerCase(), /^Confirm that Leadforge should leave out your email address$/, 30_000);
    return mail.links.find((link) => link.includes('/opt-out/confirm?token='))!;
  };
  const tokenOf = (link: string) => new URL(link).searchParams.get('token');

  it('blanks an email only once its owner opens the mailed link; the reply is the same for any contact; an expired link is refused', async () => {
    const a = await newUser(20);
    const first = await generate(a.token);
    expect(first.status).toBe(200);
    const reached = (first.body.leads as ApiLead[]).find((l) => l.email && l.email_fetched_at);
    expect(reached, 'a lead whose email was read from its website').toBeDefined();
    const pastSearch = (await product.api('GET', '/api/lead-searches', undefined, bearer(a.token))).body.searches[0].id as string;
    const pastEmail = async () => ((await product.api('GET', `/api/lead-searches/${pastSearch}`, undefined, bearer(a.token))).body.leads as ApiLead[])
      .find((l) => l.company === reached!.company)!.email;

    // Anyone, signed in or not, and the same words whether the contact is in anyone's leads or not.
    const inLeads = await product.api('POST', '/api/opt-out', { email: reached!.email });
    const unknown = await product.api('POST', '/api/opt-out', { email: 'never-listed@nowhere.example' });
    expect(inLeads.status).toBe(202);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: inLeads.status, body: inLeads.body });
    // Asked is not done: a competitor cannot strip someone's contact.
    expect(await pastEmail()).toBe(reached!.email);

    // Past its 48 hours the link changes nothing, and says why.
    const lateLink = await confirmLinkOf('never-listed@nowhere.example');
    expect(new URL(lateLink).pathname).toBe('/opt-out/confirm');
    await clockAhead(49 * 3600_000);
    try {
      expect(await product.api('POST', '/api/opt-out/confirm', { token: tokenOf(lateLink) }))
        .toMatchObject({ status: 400, body: { detail: 'This confirmation link has expired (it works for 48 hours); please ask again on the opt-out page' } });
    } finally {
      await clockAhead(0);
    }
    expect(await product.api('POST', '/api/opt-out/confirm', { token: 'made-up' }))
      .toMatchObject({ status: 400, body: { detail: 'This confirmation link is invalid or was used already' } });

    const link = await confirmLinkOf(reached!.email);
    expect(await product.api('POST', '/api/opt-out/confirm', { token: tokenOf(link) }))
      .toMatchObject({ status: 200, body: { message: 'Your opt-out is confirmed: your email address is removed from every search, past and future.' } });
    expect(await pastEmail()).toBe('');
    expect((await product.api('POST', '/api/opt-out/confirm', { token: tokenOf(link) })).status).toBe(400);

    for (const user of [await newUser(20), await newUser(20)]) {
      const later = await generate(user.token);
      expect(later.status, JSON.stringify(later.body)).toBe(200);
      expect(later.body.stats).toMatchObject({ total_found: 12, credits_used: 12, remaining_credits: 8 });
      const blanked = (later.body.leads as ApiLead[]).find((l) => l.company === reached!.company)!;
      expect(blanked.email).toBe('');
      expect(Object.keys(blanked).filter((field) => field.startsWith('email_'))).toEqual([]);
      expect(await product.balance(user.token)).toBe(8);
    }
  }, 180_000);

  it("puts a phone in the administrators' queue, blanked only once approved; the reply says nothing more", async () => {
    const a = await newUser(20);
    const first = await generate(a.token);
    const withPhone = (first.body.leads as ApiLead[]).find((l) => typeof l.phone === 'string' && l.phone.startsWith('+'))!;
    expect(withPhone, 'a lead with an international phone number').toBeDefined();
    const asked = await product.api('POST', '/api/opt-out', { phone: withPhone.phone });
    const email = await product.api('POST', '/api/opt-out', { email: 'someone-else@nowhere.example' });
    expect({ status: asked.status, body: asked.body }).toEqual({ status: email.status, body: email.body });

    const admin = bearer(product.admin.token);
    const queued = (await product.api('GET', '/api/admin/opt-outs?status=pending', undefined, admin)).body.requests as { id: string; phone: string | null }[];
    const request = queued.find((r) => r.phone && r.phone.replace(/\D/g, '') === String(withPhone.phone).replace(/\D/g, ''))!;
    expect(request, 'the phone among the pending requests').toBeDefined();
    const search = (await product.api('GET', '/api/lead-searches', undefined, bearer(a.token))).body.searches[0].id as string;
    const phoneNow = async () => ((await product.api('GET', `/api/lead-searches/${search}`, undefined, bearer(a.token))).body.leads as ApiLead[])
      .find((l) => l.company === withPhone.company)!.phone;
    expect(await phoneNow()).toBe(withPhone.phone);
    expect((await product.api('POST', `/api/admin/opt-outs/${request.id}/approve`, undefined, admin)).body.status).toBe('approved');
    expect(await phoneNow()).toBe('');
  }, 120_000);

  it('fails a search whose leads cannot be stored within seconds, with the reason and nothing charged, and the next search runs', async () => {
    const leads = product.stack.services.find((service) => service.name === 'leads')!;
    // Stands in for leads that can never be stored, whatever the cause: the insert fails for this search's area.
    await leads.ctx.db.raw(`
      CREATE FUNCTION refuse_unstorable_area() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM lead_searches WHERE id = NEW.search_id AND location = 'Unstorable Twelveton') THEN
          RAISE EXCEPTION 'this lead cannot be stored';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_unstorable_area BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION refuse_unstorable_area();`);
    const user = await newUser(20);

    const failed = await generate(user.token, 'Unstorable Twelveton');
    expect(failed).toMatchObject({ status: 502, body: { code: 'intake_failed', detail: 'The leads found could not be stored. Nothing was charged; please try again in a few minutes.' } });
    expect(await product.balance(user.token)).toBe(20);
    const history = await product.api('GET', '/api/lead-searches', undefined, bearer(user.token));
    expect(history.body.searches[0]).toMatchObject({ status: 'failed', credits_used: 0, leads_count: 0 });
    // The consumer said so: the event is parked (replayable) and counted.
    const metrics = await (await fetch(`${leads.url}/metrics`)).text();
    expect(metrics).toMatch(/leadforge_dead_letters_total\{[^}]*group="leads.scrape-results"[^}]*\} 1/);

    const next = await generate(user.token);
    expect(next.status).toBe(200);
    // The phone approved above was one lead's only contact: that lead is no lead now, and not charged.
    expect(next.body.stats).toMatchObject({ credits_used: next.body.leads.length });
    expect(next.body.leads.length).toBe(11);
    expect(await product.balance(user.token)).toBe(20 - 11);
  }, 120_000);
});

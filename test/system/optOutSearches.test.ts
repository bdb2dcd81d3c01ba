import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/api.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

interface ApiLead { company: string; email: string; email_fetched_at?: string; [field: string]: unknown }

describe('searches of an area after one of its contacts opted out, through the gateway (issue 23)', () => {
  let product: ProductAround;
  let seq = 0;

  beforeAll(async () => {
    product = await startProductAround();
    product.setSource('twelve');
  }, 240_000);
  afterAll(async () => product?.close());

  const newUser = async (credits: number) => {
    const user = await product.register(`opt-out-searches-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };
  const generate = (token: string, location = 'Twelveton') => product.api('POST', '/api/generate-leads', { industry: 'Dentists', location, quantity: 12 }, bearer(token));

  it('stores and delivers every later search\'s leads, the opted-out email blank and without its verdict fields, for every user', async () => {
    const a = await newUser(20);
    const first = await generate(a.token);
    expect(first.status).toBe(200);
    const reached = (first.body.leads as ApiLead[]).find((l) => l.email && l.email_fetched_at);
    expect(reached, 'a lead whose email was read from its website').toBeDefined();

    // Anyone, signed in or not.
    expect(await product.api('POST', '/api/opt-out', { email: reached!.email })).toMatchObject({ status: 201, body: { status: 'applied' } });

    for (const user of [await newUser(20), await newUser(20)]) {
      const later = await generate(user.token);
      expect(later.status, JSON.stringify(later.body)).toBe(200);
      expect(later.body.stats).toMatchObject({ total_found: 12, credits_used: 12, remaining_credits: 8 });
      const blanked = (later.body.leads as ApiLead[]).find((l) => l.company === reached!.company)!;
      expect(blanked.email).toBe('');
      expect(Object.keys(blanked).filter((field) => field.startsWith('email_'))).toEqual([]);
      expect(await product.balance(user.token)).toBe(8);
    }
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
    expect(await product.balance(user.token)).toBe(8);
  }, 120_000);
});

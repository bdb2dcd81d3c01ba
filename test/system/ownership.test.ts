import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { bearer } from '../support/api.ts';
import { provenOptOut } from '../support/provenOptOut.ts';
import { startProductInWorld, type ProductInWorld } from '../support/productInWorld.ts';
import { startSimulatedWorld, WORLD_SMALL_TOWN, type SimulatedWorld, type WorldBusiness, type WorldProvider } from '../support/simulatedWorld.ts';

interface ApiLead {
  company: string;
  email: string;
  phone: string;
  website: string;
  owned?: boolean;
}

/**
 * One business, one charge, whichever source found it (issue "The product keeps its word"), through
 * the gateway on the simulated world's small town: 30 dentists, 27 reachable, every one listed by
 * Google Places, some by OpenStreetMap (by website, by phone, or by name only). A source is switched
 * off for a search by having its provider refuse it (the other source then answers alone).
 */
describe('ownership: a business already paid for is not charged again, from any source', () => {
  let world: SimulatedWorld;
  let product: ProductInWorld;
  let seq = 0;
  let town: WorldBusiness[];

  beforeAll(async () => {
    world = await startSimulatedWorld();
    product = await startProductInWorld(world, { PLACES_SOURCES: 'google,osm' });
    town = world.businesses.filter((b) => b.town === WORLD_SMALL_TOWN);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await world?.close();
  });

  const newUser = async (credits: number) => {
    const user = await product.register(`ownership-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };
  /** A search of the town with only one source answering (the other's provider refuses it). */
  const searchWith = async (token: string, only: 'google' | 'osm') => {
    const off: WorldProvider = only === 'google' ? 'overpass' : 'google';
    world.failing.add(off);
    try {
      const res = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: WORLD_SMALL_TOWN, quantity: 30 }, bearer(token));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { leads: ApiLead[]; stats: { credits_used: number; skipped_owned: number; total_found: number } };
    } finally {
      world.failing.delete(off);
    }
  };
  const businessOf = (lead: ApiLead): WorldBusiness | undefined =>
    town.find((b) => (lead.website && b.website === lead.website) || (lead.phone && b.phone === lead.phone) || b.name === lead.company);
  const indexes = (leads: ApiLead[]) => leads.map((lead) => businessOf(lead)!.index).sort((a, b) => a - b);
  const reachable = () => town.filter((b) => b.contactable).map((b) => b.index);
  /** What OpenStreetMap alone yields a lead for: a website with contacts on it, or a phone, in its tags. */
  const osmLeads = () => town.filter((b) => (b.osm?.tags === 'website' && b.website && (b.siteEmail || b.sitePhone)) || (b.osm?.tags === 'phone' && b.phone)).map((b) => b.index);
  /** OpenStreetMap listings with a phone and no website: nothing but the phone (or the name and position) says which business they are. */
  const osmPhoneOnly = () => town.filter((b) => b.osm?.tags === 'phone' && b.phone).map((b) => b.index);

  it('Google, then OpenStreetMap: a dentist without a website (and every other business) is charged once', async () => {
    expect(town.find((b) => !b.website && b.osm?.tags === 'phone'), 'a dentist with a phone and no website that both sources list').toBeDefined();
    const user = await newUser(100);
    const first = await searchWith(user.token, 'google');
    expect(indexes(first.leads)).toEqual(reachable());
    expect(first.stats.credits_used).toBe(reachable().length);

    const second = await searchWith(user.token, 'osm');
    expect(second.stats).toMatchObject({ total_found: 0, credits_used: 0, skipped_owned: osmLeads().length });
    expect(await product.balance(user.token)).toBe(100 - reachable().length);
  }, 180_000);

  it('OpenStreetMap, then Google: only the businesses OpenStreetMap did not give are charged', async () => {
    const user = await newUser(100);
    const first = await searchWith(user.token, 'osm');
    expect(indexes(first.leads)).toEqual(osmLeads());
    expect(osmPhoneOnly().every((index) => osmLeads().includes(index))).toBe(true);

    const second = await searchWith(user.token, 'google');
    expect(indexes(second.leads)).toEqual(reachable().filter((index) => !osmLeads().includes(index)));
    expect(second.stats).toMatchObject({ credits_used: reachable().length - osmLeads().length, skipped_owned: osmLeads().length });
    expect(await product.balance(user.token)).toBe(100 - reachable().length);
  }, 180_000);

  it('the same name within 100 m is the same business: a listing with another phone and no website is charged once', async () => {
    for (const index of osmPhoneOnly()) world.osmSecondLines.add(index);
    try {
      const user = await newUser(100);
      await searchWith(user.token, 'google');
      const second = await searchWith(user.token, 'osm');
      expect(second.stats).toMatchObject({ total_found: 0, credits_used: 0, skipped_owned: osmLeads().length });
      expect(await product.balance(user.token)).toBe(100 - reachable().length);

      // Delivered on request, free and marked: the second line shows it is OpenStreetMap's listing.
      const owned = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: WORLD_SMALL_TOWN, quantity: 30, include_owned: true }, bearer(user.token));
      expect(owned.status).toBe(200);
      expect((owned.body.leads as ApiLead[]).every((lead) => lead.owned)).toBe(true);
      expect(owned.body.stats.credits_used).toBe(0);
      expect(await product.balance(user.token)).toBe(100 - reachable().length);
    } finally {
      world.osmSecondLines.clear();
    }
  }, 180_000);

  it('a monitor\'s run keeps the same rule: what a Google search delivered is not delivered again from OpenStreetMap', async () => {
    const user = await newUser(100);
    await searchWith(user.token, 'google');
    const monitor = await product.api('POST', '/api/monitors', { industry: 'Dentists', location: WORLD_SMALL_TOWN, max_leads_per_run: 50, frequency: 'daily' }, bearer(user.token));
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    world.failing.add('google');
    try {
      const run = await product.api('POST', `/api/monitors/${monitor.body.id}/run`, undefined, bearer(user.token));
      expect(run.status).toBe(202);
      const search = await waitFor(async () => (await product.api('GET', `/api/lead-searches/${run.body.search_id}`, undefined, bearer(user.token))).body, {
        until: (body) => body.status !== 'running', timeoutMs: 120_000, what: 'the monitor\'s run to end',
      });
      expect(search).toMatchObject({ status: 'completed', leads_count: 0, credits_used: 0 });
    } finally {
      world.failing.delete('google');
    }
    // The run's hold given back in full.
    await waitFor(() => product.balance(user.token), { until: (balance) => balance === 100 - reachable().length, timeoutMs: 30_000, what: 'the run\'s credits given back' });
  }, 180_000);

  it('two searches at once by one user over the same businesses, one of them without Google: each business charged once, the ledger exact', async () => {
    // Each search holds its quantity until it settles.
    const user = await newUser(300);
    // The first request Google gets is refused: one search runs on OpenStreetMap alone, the other on both.
    world.failNext('google', 1);
    const both = await Promise.all([1, 2].map(() =>
      product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: WORLD_SMALL_TOWN, quantity: 30 }, bearer(user.token))));
    expect(both.map((res) => res.status)).toEqual([200, 200]);
    expect(both.filter((res) => res.body.stats.coverage.sources.google.error)).toHaveLength(1);
    const delivered = both.flatMap((res) => indexes(res.body.leads as ApiLead[]));
    expect(delivered.sort((a, b) => a - b)).toEqual(reachable());
    expect(both.reduce((sum, res) => sum + (res.body.stats.credits_used as number), 0)).toBe(reachable().length);
    expect(await product.balance(user.token)).toBe(300 - reachable().length);
    const history = (await product.api('GET', '/api/lead-searches', undefined, bearer(user.token))).body.searches as { credits_used: number }[];
    expect(history.map((search) => search.credits_used).reduce((a, b) => a + b, 0)).toBe(reachable().length);
  }, 180_000);

  // Last: opt-outs hold for every user of the product.
  it('a lead whose every contact was opted out is not delivered and not charged; one with a contact left is', async () => {
    const phoneOnly = town.find((b) => !b.website && b.phone && b.contactable)!;
    const emailOnly = town.find((b) => b.siteEmail && !b.phone && !b.sitePhone)!;
    const both = town.find((b) => b.siteEmail && b.sitePhone)!;
    for (const contact of [{ phone: phoneOnly.phone! }, { email: emailOnly.siteEmail! }, { email: both.siteEmail! }]) {
      await provenOptOut(product.api, product.dataDir, product.admin.token, contact);
    }
    const user = await newUser(100);
    const result = await searchWith(user.token, 'google');
    const expected = reachable().filter((index) => index !== phoneOnly.index && index !== emailOnly.index);
    expect(indexes(result.leads)).toEqual(expected);
    expect(result.leads.filter((lead) => !lead.email && !lead.phone)).toEqual([]);
    expect(result.leads.find((lead) => lead.company === both.name)).toMatchObject({ email: '', phone: both.sitePhone });
    expect(result.stats.credits_used).toBe(expected.length);
    expect(await product.balance(user.token)).toBe(100 - expected.length);
  }, 180_000);
});

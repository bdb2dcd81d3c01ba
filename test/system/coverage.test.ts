import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/api.ts';
import { readFeed } from '../../services/leads/test/support/feedReader.ts';
import { startProductInWorld, type ProductInWorld } from '../support/productInWorld.ts';
import { startSimulatedWorld, WORLD_CITY, WORLD_SMALL_TOWN, type SimulatedWorld, type WorldBusiness } from '../support/simulatedWorld.ts';

interface ApiLead {
  website?: string | null;
  phone?: string | null;
}

/**
 * Coverage of an area (issue 24), through the gateway, on the simulated world: a city with a real,
 * non-rectangular boundary holding 450 dentists (405 reachable), more in its bounding box outside the
 * boundary and in neighbouring towns, searched with OpenStreetMap and Google Places together.
 */
describe('coverage: every business in the area, from every source, said', () => {
  let world: SimulatedWorld;
  let product: ProductInWorld;
  let seq = 0;
  let byPhone: Map<string, WorldBusiness>;

  beforeAll(async () => {
    world = await startSimulatedWorld();
    product = await startProductInWorld(world, { PLACES_SOURCES: 'osm,google' });
    byPhone = new Map(world.businesses.flatMap((b) => (b.phone ? [[b.phone, b] as const] : [])));
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await world?.close();
  });

  const businessOf = (lead: ApiLead): WorldBusiness | undefined =>
    (lead.website ? world.businessOfHost(new URL(lead.website).hostname) : undefined) ?? (lead.phone ? byPhone.get(lead.phone) : undefined);

  const newUser = async (credits: number) => {
    const user = await product.register(`coverage-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };
  const generate = (token: string, location: string, quantity: number) =>
    product.api('POST', '/api/generate-leads', { industry: 'Dentists', location, quantity }, bearer(token));

  it('200 requested where the area holds more: 200 delivered, none outside the boundary, no business twice, coverage said everywhere', async () => {
    const user = await newUser(500);
    const res = await generate(user.token, WORLD_CITY, 200);
    expect(res.status).toBe(200);
    const leads = res.body.leads as ApiLead[];
    expect(leads).toHaveLength(200);
    const businesses = leads.map(businessOf);
    expect(businesses.every(Boolean)).toBe(true);
    expect(businesses.filter((b) => b!.town !== WORLD_CITY)).toEqual([]);
    // Two sources, one list: no business delivered twice.
    expect(new Set(businesses.map((b) => b!.index)).size).toBe(200);
    expect(await product.balance(user.token)).toBe(300);

    const coverage = res.body.stats.coverage;
    expect(coverage).toMatchObject({ area: { name: WORLD_CITY, boundary: 'polygon' }, exhausted: false });
    expect(Object.keys(coverage.sources).sort()).toEqual(['google', 'osm']);
    expect(coverage.sources.google.error).toBeUndefined();
    // Google's first cell (the bounding box) saturates; how many more it asks depends on how fast the
    // sites answer (the search reads places as it needs them): cell splitting is the source tests'.
    expect(coverage.cells_searched).toBeGreaterThanOrEqual(1);
    expect(coverage.cells_saturated).toBeGreaterThanOrEqual(1);
    // One geocoding request besides the sources' own.
    expect(coverage.provider_requests).toBe(coverage.sources.osm.requests + coverage.sources.google.requests + 1);
    expect(coverage.places_outside_area).toBeGreaterThan(0);
    expect(coverage.duplicates_merged).toBeGreaterThan(0);
    expect(coverage.provider_requests).toBeLessThanOrEqual(60);

    const id = (await product.api('GET', '/api/lead-searches?page_size=1', undefined, bearer(user.token))).body.searches[0].id as string;
    const detail = await product.api('GET', `/api/lead-searches/${id}`, undefined, bearer(user.token));
    expect(detail.body.coverage).toEqual(coverage);
    const exported = await product.api('GET', `/api/lead-searches/${id}/export.json`, undefined, bearer(user.token));
    expect(exported.body.search.coverage).toEqual(coverage);
    const { messages } = await readFeed(`${product.stack.url}/api/lead-searches/${id}/events`, bearer(user.token), { until: (m) => m.event === 'finished', timeoutMs: 30_000 });
    expect(messages.some((m) => m.event === 'progress' && m.data.coverage?.area?.boundary === 'polygon')).toBe(true);
  }, 180_000);

  it('a small town: every reachable business there and nothing from elsewhere, exhausted, charged for exactly those', async () => {
    const user = await newUser(500);
    const res = await generate(user.token, WORLD_SMALL_TOWN, 100);
    expect(res.status).toBe(200);
    const delivered = (res.body.leads as ApiLead[]).map(businessOf);
    const there = world.contactableIn(WORLD_SMALL_TOWN).map((b) => b.index).sort((a, b) => a - b);
    expect(delivered.map((b) => b!.index).sort((a, b) => a - b)).toEqual(there);
    expect(res.body.stats.coverage.exhausted).toBe(true);
    expect(res.body.stats.credits_used).toBe(there.length);
    expect(await product.balance(user.token)).toBe(500 - there.length);
    const id = (await product.api('GET', '/api/lead-searches?page_size=1', undefined, bearer(user.token))).body.searches[0].id as string;
    const detail = await product.api('GET', `/api/lead-searches/${id}`, undefined, bearer(user.token));
    expect(detail.body).toMatchObject({ status: 'completed', reason: 'done', error: null, leads_count: there.length });
  }, 180_000);

  it('one source failing: the other source\'s leads, the error in the coverage', async () => {
    world.failing.add('google');
    try {
      const user = await newUser(500);
      const res = await generate(user.token, WORLD_CITY, 30);
      expect(res.status).toBe(200);
      expect(res.body.leads).toHaveLength(30);
      expect(res.body.stats.coverage.sources.google.error).toMatch(/PERMISSION_DENIED/);
      expect(res.body.stats.coverage.sources.osm.error).toBeUndefined();
      expect(res.body.stats.coverage.exhausted).toBe(false);
    } finally {
      world.failing.delete('google');
    }
  }, 180_000);

  it('the same search twice: at least 95% the same businesses', async () => {
    const [first, second] = [await newUser(500), await newUser(500)];
    const a = await generate(first.token, WORLD_CITY, 100);
    const b = await generate(second.token, WORLD_CITY, 100);
    const ids = (res: typeof a) => new Set((res.body.leads as ApiLead[]).map((lead) => businessOf(lead)!.index));
    const [x, y] = [ids(a), ids(b)];
    expect(x.size).toBe(100);
    expect([...x].filter((index) => y.has(index)).length).toBeGreaterThanOrEqual(95);
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { bearer } from '../support/api.ts';
import { startProductAround, type ProductAround, type SourceMode } from '../support/productAround.ts';
import { FIXTURE_AMBIGUOUS, FIXTURE_NOWHERE, FIXTURE_TOWN } from '../../services/scraper/test/fixtureWeb/providerAnswers.ts';

/**
 * A search that fails says why, in words and as a stable code, on the synchronous call's error and on
 * the search's failed status; and costs nothing: the hold is released and the ledger nets to zero.
 * Then what a user sees before paying: the places a text may mean, and an estimate of what exists there.
 */
describe('searches that fail say why and charge nothing; locations and estimates before paying', () => {
  let product: ProductAround;
  let seq = 0;

  beforeAll(async () => {
    product = await startProductAround();
  }, 240_000);
  afterAll(async () => product?.close());

  const api = (...args: Parameters<ProductAround['api']>) => product.api(...args);
  const db = (service: string) => product.stack.services.find((s) => s.name === service)!.ctx.db;
  const newUser = async (credits: number) => {
    const user = await product.register(`failures-${++seq}@example.com`);
    await product.setCredits(user.id, user.token, credits);
    return user;
  };

  /** The user's credits as the ledger has them, and the hold of each search: released, nothing charged. */
  const expectNothingCharged = async (user: { id: string; token: string }, credits: number, searchIds: string[]) => {
    expect(await product.balance(user.token)).toBe(credits);
    const ledger: { delta: number; reason: string; ref: string }[] = await db('billing')('credit_ledger').where({ user_id: user.id }).orderBy('id');
    expect(ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(credits);
    for (const id of searchIds) {
      const holds = await waitFor(() => db('billing')('credit_reservations').where({ ref: `search:${id}` }), { until: (rows) => rows.length === 1 && rows[0].status !== 'held', what: `the hold of ${id} released` });
      expect(holds[0]).toMatchObject({ status: 'released' });
      // Held, then given back whole: two entries that cancel out.
      const moves = ledger.filter((entry) => entry.ref === `search:${id}`);
      expect(moves.map((entry) => entry.reason)).toEqual(['generation', 'generation_refund']);
      expect(moves.reduce((sum, entry) => sum + entry.delta, 0)).toBe(0);
    }
  };

  const generate = async (token: string, location: string, quantity = 10) => {
    const res = await api('POST', '/api/generate-leads', { industry: 'Dentists', location, quantity }, bearer(token));
    const history = await api('GET', '/api/lead-searches', undefined, bearer(token));
    const search = history.body.searches.find((s: { location: string }) => s.location === location);
    return { res, search };
  };

  const withSource = async <T>(mode: SourceMode, run: () => Promise<T>): Promise<T> => {
    product.setSource(mode);
    try {
      return await run();
    } finally {
      product.setSource('full');
    }
  };

  it('a place that does not exist: location_not_found, 422, never "try again"; with a did-you-mean when the geocoder has one', async () => {
    const user = await newUser(20);
    const { res, search } = await generate(user.token, FIXTURE_NOWHERE);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'location_not_found', detail: `We could not find "${FIXTURE_NOWHERE}" on the map. Nothing was charged; check the spelling or pick the place from the suggestions.` });
    expect(res.body.detail).not.toContain('try again');
    expect(search).toMatchObject({ status: 'failed', reason: 'source_failed', error_code: 'location_not_found', credits_used: 0, error: res.body.detail });

    const guessed = await generate(user.token, `${FIXTURE_TOWN.name}, ${FIXTURE_NOWHERE}`);
    expect(guessed.res.status).toBe(422);
    expect(guessed.res.body).toMatchObject({ code: 'location_not_found', error_candidates: [FIXTURE_TOWN.displayName] });
    expect(guessed.res.body.detail).toContain(`Did you mean ${FIXTURE_TOWN.displayName}?`);
    // The search's own page says the same.
    const detail = await api('GET', `/api/lead-searches/${guessed.search.id}`, undefined, bearer(user.token));
    expect(detail.body).toMatchObject({ status: 'failed', error_code: 'location_not_found', error_candidates: [FIXTURE_TOWN.displayName], leads: [] });
    await expectNothingCharged(user, 20, [search.id, guessed.search.id]);
  }, 120_000);

  it('an ambiguous name: location_ambiguous with the places it names, to pick one; the picked one is searched', async () => {
    const user = await newUser(20);
    const { res, search } = await generate(user.token, FIXTURE_AMBIGUOUS.name);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'location_ambiguous', error_candidates: FIXTURE_AMBIGUOUS.places });
    expect(res.body.detail).toContain('names several places');
    expect(search).toMatchObject({ status: 'failed', error_code: 'location_ambiguous', credits_used: 0 });
    await expectNothingCharged(user, 20, [search.id]);

    const picked = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: FIXTURE_AMBIGUOUS.places[0], quantity: 3 }, bearer(user.token));
    expect(picked.status).toBe(200);
    expect(picked.body.leads).toHaveLength(3);
    expect(picked.body.stats.coverage.area.full_name).toBe(FIXTURE_AMBIGUOUS.places[0]);
  }, 120_000);

  it('the directory cut off (no internet) or answering 5xx: provider_unreachable, 502, nothing charged', async () => {
    const user = await newUser(20);
    const cut = await withSource('unreachable', () => generate(user.token, 'Cut-off City'));
    expect(cut.res.status).toBe(502);
    expect(cut.res.body).toEqual({ code: 'provider_unreachable', detail: 'The business directory could not be reached. Nothing was charged; please try again in a few minutes.' });
    const down = await withSource('down', () => generate(user.token, 'Downtown Nowhere'));
    expect(down.res.body.code).toBe('provider_unreachable');
    expect(down.search).toMatchObject({ status: 'failed', error_code: 'provider_unreachable', credits_used: 0 });
    await expectNothingCharged(user, 20, [cut.search.id, down.search.id]);
  }, 120_000);

  it('the directory refusing for its quota: provider_quota_exhausted, 503, nothing charged', async () => {
    const user = await newUser(20);
    const { res, search } = await withSource('quota', () => generate(user.token, 'Quota Town'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'provider_quota_exhausted' });
    expect(res.body.detail).toContain('quota is used up');
    expect(search).toMatchObject({ status: 'failed', error_code: 'provider_quota_exhausted', credits_used: 0 });
    await expectNothingCharged(user, 20, [search.id]);
  }, 120_000);

  it('failing searches started together: each hold released, the ledger exactly where it was', async () => {
    const user = await newUser(30);
    const results = await Promise.all([FIXTURE_NOWHERE, `${FIXTURE_NOWHERE} Beach`].map((location) =>
      api('POST', '/api/generate-leads', { industry: 'Dentists', location, quantity: 15 }, bearer(user.token))));
    expect(results.map((res) => [res.status, res.body.code])).toEqual([[422, 'location_not_found'], [422, 'location_not_found']]);
    const history = await api('GET', '/api/lead-searches', undefined, bearer(user.token));
    expect(history.body.searches).toHaveLength(2);
    await expectNothingCharged(user, 30, history.body.searches.map((s: { id: string }) => s.id));
  }, 120_000);

  it('GET /api/locations: the places a text may mean, with country, kind and boundary; ambiguity said; none found; bad input a 400 with detail', async () => {
    const user = await newUser(5);
    const town = await api('GET', `/api/locations?q=${encodeURIComponent(FIXTURE_TOWN.name)}`, undefined, bearer(user.token));
    expect(town.status).toBe(200);
    expect(town.body).toEqual({
      ambiguous: false,
      locations: [{
        name: FIXTURE_TOWN.displayName, short_name: FIXTURE_TOWN.shortName, country: 'Germany', country_code: 'DE', kind: 'town',
        boundary: { type: 'bbox', bbox: expect.arrayContaining([expect.any(Number)]) },
      }],
    });
    const [west, south, east, north] = town.body.locations[0].boundary.bbox;
    expect(west < east && south < north).toBe(true);

    const several = await api('GET', `/api/locations?q=${FIXTURE_AMBIGUOUS.name}`, undefined, bearer(user.token));
    expect(several.body.ambiguous).toBe(true);
    expect(several.body.locations.map((l: { name: string }) => l.name)).toEqual(FIXTURE_AMBIGUOUS.places);

    const nowhere = await api('GET', `/api/locations?q=${FIXTURE_NOWHERE}`, undefined, bearer(user.token));
    expect(nowhere).toMatchObject({ status: 200, body: { locations: [], ambiguous: false } });

    for (const query of ['', '?q=', '?q=a', `?q=${'x'.repeat(201)}`, '?q=%20%20%20']) {
      const bad = await api('GET', `/api/locations${query}`, undefined, bearer(user.token));
      expect(bad.status, query).toBe(400);
      expect(bad.body.detail, query).toBe('q must be 2 to 200 characters of a place name');
    }
    expect((await api('GET', '/api/locations?q=Lindenfeld')).status).toBe(401);
  }, 60_000);

  it('GET /api/locations/estimate: about how many businesses the chosen place has, from an Overpass count; null where none can be had', async () => {
    const user = await newUser(5);
    const query = (location: string, industry = 'Dentists') => `/api/locations/estimate?location=${encodeURIComponent(location)}&industry=${encodeURIComponent(industry)}`;
    const estimate = await api('GET', query(FIXTURE_TOWN.displayName), undefined, bearer(user.token));
    expect(estimate.status).toBe(200);
    expect(estimate.body).toEqual({
      estimate: { count: product.web.places.length, industry: 'Dentists', location: FIXTURE_TOWN.displayName, short_name: FIXTURE_TOWN.shortName, source: 'osm' },
    });
    expect((await api('GET', query(FIXTURE_NOWHERE), undefined, bearer(user.token))).body).toEqual({ estimate: null });
    const bad = await api('GET', '/api/locations/estimate?location=Lindenfeld', undefined, bearer(user.token));
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('location and industry are required (at most 200 and 100 characters)');
  }, 60_000);

  it('GET /api/places-status: the providers answered at start', async () => {
    const user = await newUser(5);
    const status = await waitFor(() => api('GET', '/api/places-status', undefined, bearer(user.token)), { until: (res) => res.body.checked_at !== null, what: 'the start-up check' });
    expect(status.body.providers.map((p: { name: string; reachable: boolean; detail?: string }) => [p.name, p.reachable, p.detail])).toEqual([['nominatim', true, undefined], ['osm', true, undefined]]);
    expect(status.body.reachable).toBe(true);
  }, 60_000);
});

describe('a product whose places sources cannot be used', () => {
  let product: ProductAround;

  beforeAll(async () => {
    // Nothing listens on port 9 of loopback: no internet, as far as the product can tell; Google without its key.
    product = await startProductAround({ sites: 5, env: { NOMINATIM_URL: 'http://127.0.0.1:9/nominatim', PLACES_SOURCE: 'google', GOOGLE_PLACES_API_KEY: '', GOOGLE_PLACES_API_BASE: 'http://127.0.0.1:9/google' } });
  }, 240_000);
  afterAll(async () => product?.close());

  it('says so at /api/places-status, and a search fails as no_source_configured, nothing charged', async () => {
    const user = await product.register('no-source@example.com');
    await product.setCredits(user.id, user.token, 10);
    const status = await waitFor(() => product.api('GET', '/api/places-status', undefined, bearer(user.token)), { until: (res) => res.body.checked_at !== null, what: 'the start-up check' });
    expect(status.body).toMatchObject({ reachable: false, providers: [{ name: 'nominatim', reachable: false }, { name: 'google', reachable: false }] });
    expect(status.body.providers[0].detail).toMatch(/127\.0\.0\.1:9/);

    const res = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'London', quantity: 5 }, bearer(user.token));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'no_source_configured', detail: 'No business directory is set up to search yet. Nothing was charged; an administrator needs to configure a places source.' });
    expect(await product.balance(user.token)).toBe(10);
    const history = await product.api('GET', '/api/lead-searches', undefined, bearer(user.token));
    expect(history.body.searches[0]).toMatchObject({ status: 'failed', error_code: 'no_source_configured', credits_used: 0 });
  }, 120_000);
});

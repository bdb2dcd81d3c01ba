import type { EventEnvelope } from '@leadforge/contracts';
import type { RunningService } from '@leadforge/kit/service';
import { emitEvent, type Bus } from '@leadforge/kit/events';
import { createMemoryBus } from '@leadforge/kit/events';
import { startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import { createScraperService, type ScraperRuntime } from '../../src/index.ts';
import type { FixtureWebAddress } from '../fixtureWeb/fixtureWeb.ts';
import { testIdentities } from './testIdentities.ts';

export interface ScraperUnderTest {
  svc: RunningService;
  rt: ScraperRuntime;
  bus: Bus;
  /** Every scraper.result event published so far, in order. */
  results: EventEnvelope<any>[];
  identities: ReturnType<typeof testIdentities>;
  call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** Answers the event written, so a test can wait for the scraper to have handled it (kit_handled_events). */
  requestSearch(search: { search_id: string; industry?: string; location?: string; quantity: number; deadlineInMs?: number; known_business_keys?: string[]; monitor_id?: string }): Promise<EventEnvelope>;
  cancelSearch(searchId: string): Promise<EventEnvelope>;
  /** Resolves with the scrape.finished event of a search. */
  finished(searchId: string, timeoutMs?: number): Promise<EventEnvelope<any>>;
  stop(): Promise<void>;
}

/** The env that points every provider at the fixture web and lets the crawler reach it. */
export function fixtureEnv(web: FixtureWebAddress, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    NOMINATIM_URL: web.urls.nominatim,
    OVERPASS_URL: web.urls.overpass,
    GOOGLE_PLACES_API_BASE: web.urls.googlePlaces,
    DECODO_SCRAPER_API_BASE: web.urls.decodoScraper,
    DECODO_API_BASE: web.urls.decodoApi,
    DECODO_PROXY_CHECK_URL: web.urls.proxyCheck,
    DECODO_PROXY_URL: '',
    DECODO_API_KEY: '',
    SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
    EMAIL_MX_CHECK: 'false',
    SCRAPER_PER_HOST_DELAY_MS: '0',
    SCRAPER_TIMEOUT_MS: '3000',
    SCRAPER_JOB_POLL_MS: '100',
    SCRAPER_LEAD_BATCH_MS: '100',
    REDIS_URL: '',
    ...extra,
  };
}

/**
 * The scraper service on a free port with its own database (PGlite or a fresh Postgres
 * database), its own in-process bus, the fixture web for every outside host, and test tokens.
 */
export async function startScraperUnderTest(options: { kind: TestDatabaseKind; web: FixtureWebAddress; env?: NodeJS.ProcessEnv; bus?: Bus; publicAddresses?: boolean }): Promise<ScraperUnderTest> {
  const identities = testIdentities();
  const bus = options.bus ?? createMemoryBus();
  const def = createScraperService({ lookup: options.publicAddresses ? options.web.publicLookup : options.web.loopbackLookup, route: options.web.route });
  const svc = await startServiceForTest(identities.authenticated(def), { kind: options.kind, env: fixtureEnv(options.web, options.env), bus });
  const rt = await def.runtimeOf(svc.ctx);
  const results: EventEnvelope<any>[] = [];
  const waiters = new Set<() => void>();
  const subscription = await bus.subscribe({
    group: `test-results-${Math.random()}`,
    topics: ['scraper.result'],
    handler: async ({ envelope }) => {
      results.push(envelope);
      for (const waiter of waiters) waiter();
    },
  });

  const publish = (type: 'search.requested' | 'search.cancelled', key: string, data: any): Promise<EventEnvelope> =>
    svc.ctx.db.transaction((trx) => emitEvent(trx, type, key, data));

  return {
    svc,
    rt,
    bus,
    results,
    identities,
    async call(method, path, body, token) {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { /* keep text */ }
      return { status: res.status, body: parsed };
    },
    // The leads service publishes these; here the scraper's own outbox carries them onto the bus.
    requestSearch: ({ search_id, industry = 'dentist', location = 'London', quantity, deadlineInMs = 60_000, known_business_keys, monitor_id }) =>
      publish('search.requested', search_id, {
        search_id, user_id: 'user-1', industry, location, quantity, deadline_at: new Date(Date.now() + deadlineInMs).toISOString(),
        ...(known_business_keys ? { known_business_keys } : {}),
        ...(monitor_id ? { monitor_id } : {}),
      }),
    cancelSearch: (searchId) => publish('search.cancelled', searchId, { search_id: searchId, user_id: 'user-1' }),
    finished(searchId, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const done = results.find((event) => event.type === 'scrape.finished' && event.key === searchId);
          if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(done);
          }
        };
        const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`search ${searchId} did not finish in ${timeoutMs} ms`)); }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      await subscription.close();
      await svc.stop();
      if (!options.bus) await bus.close();
    },
  };
}

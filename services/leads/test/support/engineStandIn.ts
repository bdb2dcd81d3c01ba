import { v7 as uuidv7 } from 'uuid';
import type { Static } from 'typebox';
import { TOPICS, type EngineLead, type EventData, type EventEnvelope } from '@leadforge/contracts';
import type { Bus } from '@leadforge/kit/events';

type Lead = Static<typeof EngineLead>;
type Requested = EventData<'search.requested'>;

/**
 * The lead engine's side of the bus, driven by the test: it sees `search.requested` and
 * `search.cancelled` and publishes `scrape.*` on `scraper.result` keyed by search id, as the scraper does.
 */
export async function startEngineStandIn(bus: Bus) {
  const requested = new Map<string, Requested>();
  const cancelled = new Set<string>();
  const waiters: (() => void)[] = [];
  const subscription = await bus.subscribe({
    group: 'test-engine',
    topics: [TOPICS.leadsSearch],
    handler: async ({ envelope }) => {
      if (envelope.type === 'search.requested') requested.set((envelope.data as Requested).search_id, envelope.data as Requested);
      if (envelope.type === 'search.cancelled') cancelled.add((envelope.data as { search_id: string }).search_id);
      for (const wake of waiters.splice(0)) wake();
    },
  });

  const publish = async <T extends 'scrape.progress' | 'scrape.leads_found' | 'scrape.finished'>(type: T, searchId: string, data: EventData<T>) => {
    const envelope: EventEnvelope = { id: uuidv7(), type, version: 1, occurred_at: new Date().toISOString(), key: searchId, data };
    await bus.publish([{ topic: TOPICS.scraperResult, key: searchId, envelope }]);
  };

  return {
    requested,
    cancelled,
    /** Resolves once `search.requested` for this search has reached the engine. */
    async waitForRequest(searchId: string, timeoutMs = 5000): Promise<Requested> {
      const until = Date.now() + timeoutMs;
      while (!requested.has(searchId)) {
        if (Date.now() > until) throw new Error(`search.requested for ${searchId} never arrived`);
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 50); });
      }
      return requested.get(searchId)!;
    },
    progress: (searchId: string, placesFound: number, websitesChecked: number, leadsFound: number) =>
      publish('scrape.progress', searchId, { search_id: searchId, places_found: placesFound, websites_checked: websitesChecked, leads_found: leadsFound }),
    leads: (searchId: string, leads: Lead[]) => publish('scrape.leads_found', searchId, { search_id: searchId, leads }),
    finish: (searchId: string, reason: EventData<'scrape.finished'>['reason'], error?: string, failure?: EventData<'scrape.finished'>['failure']) =>
      publish('scrape.finished', searchId, {
        search_id: searchId, reason, stats: { total_found: 0, with_email: 0, with_phone: 0, with_website: 0 }, ...(error ? { error } : {}), ...(failure ? { failure } : {}),
      }),
    close: () => subscription.close(),
  };
}

export type EngineStandIn = Awaited<ReturnType<typeof startEngineStandIn>>;

/** A plausible lead from the engine; `i` makes it a different business. */
export function engineLead(i: number, overrides: Partial<Lead> = {}): Lead {
  return {
    key: `osm:node/${1000 + i}`,
    name: `Owner ${i}`,
    company: `Bright Smiles Dental ${i}`,
    email: `hello${i}@brightsmiles${i}.example`,
    phone: `+1555010${String(i).padStart(4, '0')}`,
    website: `https://brightsmiles${i}.example/`,
    city: 'Springfield',
    source: 'osm',
    ...overrides,
  };
}

import pino from 'pino';
import type { Db } from '@leadforge/kit/db';
import { loadScraperConfig, type ScraperConfig } from '../../src/config.ts';
import { createSiteEnricher } from '../../src/crawl/siteEnrichment.ts';
import { JobWorker } from '../../src/search/jobWorker.ts';
import { recordSearch } from '../../src/search/jobStore.ts';
import { SearchRun } from '../../src/search/searchRun.ts';
import { OutboundClient } from '../../src/outbound/outboundClient.ts';
import { placesSearchFor } from '../../src/places/placesSearchFor.ts';
import { memoryProxyQuota, type ProxyQuota } from '../../src/outbound/proxyQuota.ts';
import type { FixtureWebAddress } from '../fixtureWeb/fixtureWeb.ts';
import { fixtureEnv } from './scraperUnderTest.ts';
import { testPageReader } from './testPageReader.ts';

export const MIGRATIONS_DIR = new URL('../../src/db/migrations', import.meta.url).pathname;

export interface Replica {
  owner: string;
  worker: JobWorker;
  client: OutboundClient;
  config: ScraperConfig;
  stop(): Promise<void>;
}

/**
 * A scraper replica's job machinery on a database shared with other replicas: what each
 * scraper process runs, minus its HTTP server and bus consumer (jobs are recorded directly).
 */
export function startReplica(options: { db: Db; web: FixtureWebAddress; owner: string; replica?: string; env?: NodeJS.ProcessEnv; quota?: ProxyQuota }): Replica {
  const config = loadScraperConfig(fixtureEnv(options.web, options.env));
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const client = new OutboundClient({
    userAgent: config.userAgent,
    proxyUrl: config.decodoProxyUrl,
    allowPrivateNetworks: true,
    lookup: options.web.loopbackLookup,
    route: options.web.route,
    ...config.http,
    quota: options.quota ?? memoryProxyQuota(),
    usage: { record: () => undefined },
  });
  const placesSearch = placesSearchFor(config, client.fetchJson);
  const parsing = testPageReader();
  const enrich = createSiteEnricher({ client, reader: parsing.reader, contactPages: config.contactPagesPerSite });
  const worker = new JobWorker(options.db, { owner: options.owner, replica: options.replica }, config.jobs, (lease) =>
    new SearchRun(lease, { db: options.db, placesSearch, enrich, jobs: config.jobs, log }).run(), log);
  worker.start();
  return {
    owner: options.owner,
    worker,
    client,
    config,
    async stop() {
      await worker.stop();
      await client.close();
      await parsing.release();
    },
  };
}

export async function requestSearch(db: Db, searchId: string, quantity: number, deadlineInMs = 120_000): Promise<void> {
  await db.transaction((trx) => recordSearch(trx, {
    search_id: searchId, user_id: 'user-1', industry: 'dentist', location: 'London', quantity, deadline_at: new Date(Date.now() + deadlineInMs).toISOString(),
  }));
}

/** The events written to the outbox for a search: exactly what the relay publishes. */
export async function outboxEvents(db: Db, searchId: string): Promise<{ type: string; data: any }[]> {
  const rows: { envelope: any }[] = await db('kit_outbox').where({ key: searchId }).orderBy('seq').select('envelope');
  return rows.map(({ envelope }) => (typeof envelope === 'string' ? JSON.parse(envelope) : envelope));
}

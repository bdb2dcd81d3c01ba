// Lead engine throughput: searches of 200 places with websites on the local fixture web, every
// answer delayed 300 ms, each site a home page linking three contact / about / impressum pages
// (plus its robots.txt): five requests per site. Reports the time of one 200-lead search on one
// instance (target: under 5 s; measured on a warm process, the fresh-process figure beside it), enriched leads per second with 1, 2 and 4 worker instances
// sharing the job table, and CPU milliseconds per lead. The fixture web runs in a child process
// so its CPU is not counted; the instances run in this process on one shared database (embedded
// PGlite, or PostgreSQL when BENCH_DATABASE_URL / TEST_DATABASE_URL is set).
import os from 'node:os';
import pino from 'pino';
import type { Db } from '@leadforge/kit/db';
import { createTestDatabase } from '@leadforge/testing';
import { loadScraperConfig } from '../services/scraper/src/config.ts';
import { parseConfigOf } from '../services/scraper/src/crawl/parseConfig.ts';
import { createSiteEnricher } from '../services/scraper/src/crawl/siteEnrichment.ts';
import { JobWorker } from '../services/scraper/src/search/jobWorker.ts';
import { readJob, recordSearch } from '../services/scraper/src/search/jobStore.ts';
import { SearchRun } from '../services/scraper/src/search/searchRun.ts';
import { OutboundClient } from '../services/scraper/src/outbound/outboundClient.ts';
import { acquireParsePool } from '../services/scraper/src/crawl/parsePool.ts';
import { createPageReader } from '../services/scraper/src/crawl/pageReader.ts';
import { placesSearchFor } from '../services/scraper/src/places/placesSearchFor.ts';
import { memoryProxyQuota } from '../services/scraper/src/outbound/proxyQuota.ts';
import { fixtureWebAt } from '../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { startFixtureWebProcess } from '../services/scraper/test/fixtureWeb/fixtureWebProcess.ts';
import { reportFigures } from './benchResults.ts';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const PLACES = 200;
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 4);
const MIGRATIONS = new URL('../services/scraper/src/db/migrations', import.meta.url).pathname;

await main();

function envFor(port: number): NodeJS.ProcessEnv {
  const { urls } = fixtureWebAt(port);
  // SCRAPER_* variables of the caller's environment tune the instances (concurrency, delays...).
  const tuning = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('SCRAPER_')));
  return {
    ...tuning,
    NOMINATIM_URL: urls.nominatim,
    OVERPASS_URL: urls.overpass,
    SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
    EMAIL_MX_CHECK: 'false',
    SCRAPER_JOB_POLL_MS: tuning.SCRAPER_JOB_POLL_MS ?? '250',
  };
}

function startInstance(db: Db, port: number, name: string) {
  const config = loadScraperConfig(envFor(port));
  const log = pino({ level: 'silent' });
  const client = new OutboundClient({
    userAgent: config.userAgent,
    allowPrivateNetworks: true,
    lookup: fixtureWebAt(port).loopbackLookup,
    route: fixtureWebAt(port).route,
    ...config.http,
    quota: memoryProxyQuota(),
    usage: { record: () => undefined },
  });
  const placesSearch = placesSearchFor(config, client.fetchJson);
  // Pages are parsed in the process's worker pool, as a serving instance does.
  const parse = parseConfigOf(config.parse);
  const parsing = acquireParsePool(parse.workers);
  const reader = createPageReader({ pool: parsing.pool, timeoutMs: parse.timeoutMs, maxDepth: parse.maxDepth, onGivenUp: () => undefined, log });
  const enrich = createSiteEnricher({ client, reader, contactPages: config.contactPagesPerSite });
  const worker = new JobWorker(db, { owner: name }, config.jobs, (lease) =>
    new SearchRun(lease, { db, placesSearch, enrich, jobs: config.jobs, log }).run(), log);
  worker.start();
  return { async stop() { await worker.stop(); await client.close(); await parsing.release(); } };
}

async function runScenario(port: number, instances: number, searches: number, label: string) {
  const database = await createTestDatabase('scraper', MIGRATIONS, process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  const db = database.db;
  const ids = Array.from({ length: searches }, (_, i) => `${label}-${i}`);
  const cpuBefore = process.cpuUsage();
  const loadBefore = os.loadavg()[0];
  const started = performance.now();
  for (const [i, id] of ids.entries()) {
    await db.transaction((trx) => recordSearch(trx, {
      search_id: id, user_id: 'bench', industry: 'dentist', location: `area-${i}`, quantity: PLACES, deadline_at: new Date(Date.now() + 600_000).toISOString(),
    }));
  }
  const running = Array.from({ length: instances }, (_, i) => startInstance(db, port, `${label}-instance-${i}`));
  const finishedAt = new Map<string, number>();
  while (finishedAt.size < ids.length) {
    for (const id of ids) {
      if (!finishedAt.has(id) && (await readJob(db, id))?.state === 'finished') finishedAt.set(id, performance.now());
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const jobs = await Promise.all(ids.map((id) => readJob(db, id)));
  const leads = jobs.reduce((sum, job) => sum + (job?.leads_sent ?? 0), 0);
  await Promise.all(running.map((instance) => instance.stop()));
  await database.close();
  return {
    instances,
    searches,
    leads,
    reasons: [...new Set(jobs.map((job) => job?.finish_reason))],
    seconds: Math.round(seconds * 100) / 100,
    leadsPerSecond: Math.round((leads / seconds) * 10) / 10,
    cpuMsPerLead: Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, leads)) * 100) / 100,
    // Other work on the machine competes for the same cores: the figures are only comparable at a similar load.
    machineLoad: Math.round(((loadBefore + os.loadavg()[0]) / 2) * 10) / 10,
  };
}

async function main() {
  const { port, stop: stopFixtureWeb } = await startFixtureWebProcess({ sites: PLACES * SEARCHES, uniformSites: true, placesPerArea: PLACES, latencyMs: LATENCY_MS });
  try {
    // The first search of a process also pays for warming up (JIT, lazy module parts); a serving
    // instance has long done that, so the target is judged on the second.
    const cold = await runScenario(port, 1, 1, 'cold');
    console.log(`one search of ${PLACES}, fresh process: ${cold.leads} leads in ${cold.seconds} s`);
    const single = await runScenario(port, 1, 1, 'single');
    console.log(`one search of ${PLACES}: ${single.leads} leads in ${single.seconds} s on one instance`);
    const scaling = [];
    for (const instances of [1, 2, 4]) {
      const result = await runScenario(port, instances, SEARCHES, `scale${instances}`);
      console.log(`${SEARCHES} searches on ${instances} instance(s): ${result.leadsPerSecond} leads/s, ${result.cpuMsPerLead} CPU ms/lead`);
      scaling.push(result);
    }
    reportFigures('leadEngine', {
      setup: {
        placesPerSearch: PLACES,
        pagesPerSite: 4,
        requestsPerSite: 5,
        latencyMs: LATENCY_MS,
        database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
        note: 'instances share one process (and its cores); each has its own outbound client and limits',
      },
      singleSearchFreshProcess: cold,
      singleSearch: { ...single, targetSeconds: 5, met: single.seconds < 5 && single.leads === PLACES },
      scaling,
    });
  } finally {
    await stopFixtureWeb();
  }
}

import { defineService, running } from '@leadforge/kit/service';
import { adminRoutes } from './routes/adminRoutes.ts';
import { scrapeRoute } from './routes/scrapeRoute.ts';
import { locationRoutes } from './routes/locationRoutes.ts';
import { statusRoute } from './routes/statusRoute.ts';
import { startSearchConsumer } from './events/searchConsumer.ts';
import { startAccountErasureConsumer } from './events/accountErasureConsumer.ts';
import { SEARCH_JOBS } from './search/jobStore.ts';
import { scraperConfigFrom, ScraperVariables } from './config.ts';
import { buildRuntime, type ScraperHooks, type ScraperRuntime } from './runtime.ts';

export type { ScraperHooks, ScraperRuntime };

/**
 * The scraper service: takes search jobs off the bus, finds places, crawls their websites for
 * contacts and streams leads back through the outbox; serves the admin Proxy Stats endpoints.
 */
export function createScraperService(hooks: ScraperHooks = {}) {
  return defineService({
    name: 'scraper',
    queues: [SEARCH_JOBS],
    migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
    variables: ScraperVariables,
    config: scraperConfigFrom,
    runtime: (ctx, config) => buildRuntime(ctx, config, hooks),
    routes: [adminRoutes, scrapeRoute, locationRoutes, statusRoute],
    // Its consumers stop first, then the jobs under way and what they held (the runtime's stop).
    start: [(rt) => running(rt), startSearchConsumer, startAccountErasureConsumer],
  });
}

export const scraperService = createScraperService();
export default scraperService;

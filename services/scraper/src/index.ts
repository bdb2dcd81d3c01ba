import type { ServiceContext, ServiceDefinition } from '@leadforge/kit/service';
import { perService } from '@leadforge/kit/service';
import { adminRoutes } from './routes/adminRoutes.ts';
import { scrapeRoute } from './routes/scrapeRoute.ts';
import { startSearchConsumer } from './events/searchConsumer.ts';
import { startAccountErasureConsumer } from './events/accountErasureConsumer.ts';
import { buildRuntime, type ScraperHooks, type ScraperRuntime } from './runtime.ts';

export type { ScraperHooks, ScraperRuntime };

/**
 * The scraper service: takes search jobs off the bus, finds places, crawls their websites for
 * contacts and streams leads back through the outbox; serves the admin Proxy Stats endpoints.
 */
export function createScraperService(hooks: ScraperHooks = {}): ServiceDefinition & { runtimeOf(ctx: ServiceContext): Promise<ScraperRuntime> } {
  const runtimeOf = perService((ctx) => buildRuntime(ctx, hooks));
  return {
    name: 'scraper',
    migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
    runtimeOf,

    async routes(app, ctx) {
      const rt = await runtimeOf(ctx);
      await adminRoutes(app, rt);
      await scrapeRoute(app, rt);
    },

    async start(ctx) {
      const rt = await runtimeOf(ctx);
      rt.usage.start();
      const subscription = await startSearchConsumer(rt);
      const erasure = await startAccountErasureConsumer(rt);
      rt.worker.start();
      return async () => {
        await subscription.close();
        await erasure.close();
        await rt.stop();
      };
    },
  };
}

export const scraperService = createScraperService();
export default scraperService;

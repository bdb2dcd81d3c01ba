import type { ServiceDefinition } from '@leadforge/kit/service';
import { perService } from '@leadforge/kit/service';
import { buildRuntime } from './runtime.ts';
import { consumeScrapeResults } from './events/scrapeResultConsumer.ts';
import { searchRoutes } from './routes/searchRoutes.ts';
import { generateLeadsRoute } from './routes/generateLeadsRoute.ts';
import { searchFeedRoute } from './routes/searchFeedRoute.ts';
import { exportRoute } from './routes/exportRoute.ts';
import { accountDataRoute } from './routes/accountDataRoute.ts';
import { consumeAccountDeletions } from './events/accountErasureConsumer.ts';
import { optOutRoutes } from './routes/optOutRoutes.ts';
import { adminOptOutRoutes } from './routes/adminOptOutRoutes.ts';
import { jsonExportRoute } from './routes/jsonExportRoute.ts';
import { xlsxExportRoute } from './routes/xlsxExportRoute.ts';
import { webhookRoutes } from './routes/webhookRoutes.ts';
import { monitorRoutes } from './routes/monitorRoutes.ts';

const runtimeOf = perService(buildRuntime);

/** Lead searches and their leads: starting, the live feed, history, exports (CSV, JSON, Excel), webhooks, monitors, and the credits they hold. */
export const leadsService: ServiceDefinition = {
  name: 'leads',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,

  async routes(app, ctx) {
    const rt = runtimeOf(ctx);
    app.addHook('preClose', async () => rt.closing.abort());
    await searchRoutes(app, rt);
    await generateLeadsRoute(app, rt);
    await searchFeedRoute(app, rt);
    await exportRoute(app, rt);
    await accountDataRoute(app, rt);
    await optOutRoutes(app, rt);
    await adminOptOutRoutes(app, rt);
    await jsonExportRoute(app, rt);
    await xlsxExportRoute(app, rt);
    await webhookRoutes(app, rt);
    await monitorRoutes(app, rt);
  },

  async start(ctx) {
    const rt = runtimeOf(ctx);
    const subscription = await consumeScrapeResults({ db: ctx.db, bus: ctx.bus, signals: rt.signals, settlement: rt.settlement, log: ctx.log, ownershipWindowDays: rt.config.ownershipWindowDays, intakeRetryMs: rt.config.intakeRetryMs });
    const erasure = await consumeAccountDeletions({ db: ctx.db, bus: ctx.bus, log: ctx.log });
    rt.sweeper.start();
    rt.webhooks.start();
    rt.monitors.start();
    return async () => {
      await rt.monitors.stop();
      await rt.webhooks.stop();
      await rt.sweeper.stop();
      await subscription.close();
      await erasure.close();
    };
  },
};

export default leadsService;

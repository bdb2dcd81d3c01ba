import { defineService, running } from '@leadforge/kit/service';
import { leadsConfigFrom, LeadsVariables } from './config.ts';
import { buildRuntime } from './runtime.ts';
import { consumeScrapeResults } from './events/scrapeResultConsumer.ts';
import { consumeAccountDeletions } from './events/accountErasureConsumer.ts';
import { consumeSearchMails } from './events/searchReadyConsumer.ts';
import { searchRoutes } from './routes/searchRoutes.ts';
import { generateLeadsRoute } from './routes/generateLeadsRoute.ts';
import { searchFeedRoute } from './routes/searchFeedRoute.ts';
import { exportRoutes } from './routes/exportRoutes.ts';
import { accountDataRoute } from './routes/accountDataRoute.ts';
import { optOutRoutes } from './routes/optOutRoutes.ts';
import { adminOptOutRoutes } from './routes/adminOptOutRoutes.ts';
import { webhookRoutes } from './routes/webhookRoutes.ts';
import { WEBHOOK_DELIVERIES } from './webhooks/webhookSender.ts';
import { MAIL_QUEUE } from '@leadforge/kit/mail';
import { monitorRoutes } from './routes/monitorRoutes.ts';
import { publicStatsRoute } from './routes/publicStatsRoute.ts';
import { leadActivityRoute } from './routes/leadActivityRoute.ts';

/** Lead searches and their leads: starting, the live feed, history, exports (CSV, JSON, Excel), webhooks, monitors, and the credits they hold. */
export const leadsService = defineService({
  name: 'leads',
  queues: [WEBHOOK_DELIVERIES, MAIL_QUEUE],
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  variables: LeadsVariables,
  config: leadsConfigFrom,
  runtime: buildRuntime,
  routes: [
    // Live streams and waiting calls end when the service begins to close, so the close can finish.
    (app, rt) => { app.addHook('preClose', async () => rt.closing.abort()); },
    searchRoutes, generateLeadsRoute, searchFeedRoute, exportRoutes, accountDataRoute, optOutRoutes, adminOptOutRoutes, webhookRoutes, monitorRoutes, publicStatsRoute, leadActivityRoute,
  ],
  start: [({ mail }) => running(mail), consumeScrapeResults, consumeAccountDeletions, consumeSearchMails, ({ sweeper }) => running(sweeper), ({ webhooks }) => running(webhooks), ({ monitors }) => running(monitors)],
});

export default leadsService;

import type { ServiceContext } from '@leadforge/kit/service';
import { Mailer } from '@leadforge/kit/mail';
import { SEARCH_MAILS, type SearchMailer } from './mail/searchMails.ts';
import { clockOf, type Clock } from '@leadforge/kit/work';
import type { LeadsConfig } from './config.ts';
import { abandonUnconfirmedHold } from './domain/abandonedHolds.ts';
import { CreditHolds } from './domain/creditHolds.ts';
import { FeedSignals } from './domain/searchFeed.ts';
import { SearchSettlement } from './domain/searchSettlement.ts';
import { SearchSweeper } from './domain/searchSweeper.ts';
import type { StartDeps } from './domain/searchStart.ts';
import { queueSearchDeliveries } from './webhooks/webhookDeliveries.ts';
import { webhookSender, type WebhookSender } from './webhooks/webhookSender.ts';
import { endMonitorRun } from './monitors/monitorRunEnd.ts';
import { monitorScheduler, type MonitorScheduler } from './monitors/monitorScheduler.ts';
import type { RunStartDeps } from './monitors/monitorRunStart.ts';

/** What the leads service's routes, consumer and sweeper share, built once per start. */
export interface LeadsRuntime {
  ctx: ServiceContext;
  config: LeadsConfig;
  /** The time opt-out links expire by (CLOCK_FILE moves it in tests). */
  clock: Clock;
  holds: CreditHolds;
  signals: FeedSignals;
  settlement: SearchSettlement;
  sweeper: SearchSweeper;
  webhooks: WebhookSender;
  startDeps: StartDeps;
  /** What starting a monitor's run needs (the scheduler's and "run now"'s). */
  monitorRuns: RunStartDeps;
  monitors: MonitorScheduler;
  /** The leads service's emails: "your leads are ready" and the monitors' notices. */
  mail: SearchMailer;
  /** Aborted when the service begins to close: live streams and waiting calls end so the close can finish. */
  closing: AbortController;
}

export function buildRuntime(ctx: ServiceContext, config: LeadsConfig): LeadsRuntime {
  const holds = new CreditHolds(ctx.internal);
  const signals = new FeedSignals();
  const webhooks = webhookSender(ctx.db, config.webhooks, ctx.log);
  const settlement = new SearchSettlement({
    db: ctx.db,
    holds,
    relay: ctx.relay,
    signals,
    log: ctx.log,
    endDeliveries: {
      queue: async (trx, search) => await queueSearchDeliveries(trx, search, ctx.config.publicUrl, config.webhooks.retryForMs)
        + await endMonitorRun(trx, search, config.webhooks.retryForMs),
      wake: () => webhooks.wake(),
    },
  });
  const abandon = (searchId: string) => abandonUnconfirmedHold(ctx.db, holds, searchId);
  const sweeper = new SearchSweeper({
    db: ctx.db,
    settlement,
    signals,
    abandon,
    log: ctx.log,
    sweepMs: config.sweepMs,
    deadlineGraceMs: config.deadlineGraceMs,
    stuckReservationMs: config.stuckReservationMs,
  });
  const startDeps: StartDeps = {
    db: ctx.db,
    holds,
    relay: ctx.relay,
    maxRunningPerUser: config.maxRunningPerUser,
    searchDeadlineMs: config.searchDeadlineMs,
    ownershipWindowDays: config.ownershipWindowDays,
    abandon,
  };
  const monitorRuns: RunStartDeps = { db: ctx.db, holds, startDeps, abandon, wakeRelay: () => ctx.relay.wake() };
  return {
    ctx,
    config,
    clock: clockOf(ctx.config.clockFile),
    holds,
    signals,
    settlement,
    sweeper,
    webhooks,
    startDeps,
    monitorRuns,
    monitors: monitorScheduler({ db: ctx.db, log: ctx.log, config: config.monitors, run: monitorRuns }),
    mail: new Mailer({ db: ctx.db, service: 'leads', config: config.mail, kit: ctx.config, log: ctx.log, templates: SEARCH_MAILS }),
    closing: new AbortController(),
  };
}

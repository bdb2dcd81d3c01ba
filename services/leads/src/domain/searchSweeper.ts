import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { backoffWithJitter, WorkLoop } from '@leadforge/kit/work';
import { afterCommit, type FeedSignals } from './searchFeed.ts';
import { endSearch } from './searchOutcome.ts';
import { lockSearch } from './searchRecord.ts';
import type { SearchSettlement } from './searchSettlement.ts';

export interface SweeperDeps {
  db: Db;
  settlement: SearchSettlement;
  signals: FeedSignals;
  abandon: (searchId: string) => Promise<void>;
  log: Logger;
  sweepMs: number;
  deadlineGraceMs: number;
  stuckReservationMs: number;
}

export const DEADLINE_NOTHING_FOUND = 'The search ran out of time before any lead was found. Nothing was charged; please try again.';

const MAX_RETRY_DELAY_MS = 60_000;

/**
 * The safety net that makes sure no search holds credits for ever: searches the engine went quiet
 * on end at their deadline with what they have; ended searches whose credits billing has not yet
 * settled are settled (each with its own jittered back-off); searches whose hold billing never
 * confirmed are cleaned up. It runs at start, so after a restart nothing is left behind; on the
 * kit's WorkLoop: every `sweepMs`, a jittered growing pause while the database fails, a graceful stop.
 */
export class SearchSweeper {
  private readonly loop: WorkLoop;
  private readonly retries = new Map<string, { attempts: number; nextAt: number }>();

  constructor(private readonly deps: SweeperDeps) {
    this.loop = new WorkLoop({
      name: 'lead search sweeper',
      logger: deps.log,
      step: () => this.sweep(),
      pollMs: deps.sweepMs,
      retry: { baseMs: deps.sweepMs, maxMs: MAX_RETRY_DELAY_MS },
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async sweep(): Promise<void> {
    const { db, deadlineGraceMs, stuckReservationMs } = this.deps;
    const overdue: { id: string }[] = await db('lead_searches')
      .where({ status: 'running' })
      .andWhere('deadline_at', '<', db.raw(`now() - ?::integer * interval '1 millisecond'`, [deadlineGraceMs]))
      .select('id');
    for (const { id } of overdue) await this.retry(id, () => this.endAtDeadline(id));

    const unsettled: { id: string }[] = await db('lead_searches')
      .whereNotNull('finished_at')
      .andWhere((q) => { q.where({ credits: 'held' }).orWhereNull('finished_seq'); })
      .select('id');
    for (const { id } of unsettled) await this.retry(id, () => this.deps.settlement.settle(id));

    const stuck: { id: string }[] = await db('lead_searches')
      .where({ status: 'reserving' })
      .andWhere('created_at', '<', db.raw(`now() - ?::integer * interval '1 millisecond'`, [stuckReservationMs]))
      .select('id');
    for (const { id } of stuck) await this.retry(id, () => this.deps.abandon(id));
  }

  private async endAtDeadline(id: string): Promise<void> {
    const ended = await this.deps.db.transaction(async (trx) => {
      const search = await lockSearch(trx, id);
      if (!search) return undefined;
      const outcome = search.leads_count > 0
        ? { status: 'completed' as const, reason: 'deadline', error: null }
        : { status: 'failed' as const, reason: 'deadline', error: DEADLINE_NOTHING_FOUND };
      const result = await endSearch(trx, search, outcome);
      if (result) afterCommit(trx, () => this.deps.signals.changed(id));
      return result;
    });
    if (ended) {
      this.deps.log.warn({ searchId: id, leads: ended.leads_count }, 'lead search reached its deadline without the engine finishing it');
      await this.deps.settlement.settle(id);
    }
  }

  /** Runs `work` for a search unless it failed recently; waits longer after each failure. */
  private async retry(id: string, work: () => Promise<void>): Promise<void> {
    const state = this.retries.get(id);
    if (state && state.nextAt > Date.now()) return;
    try {
      await work();
      this.retries.delete(id);
    } catch (err) {
      const attempts = (state?.attempts ?? 0) + 1;
      this.retries.set(id, { attempts, nextAt: Date.now() + backoffWithJitter(attempts, { baseMs: 2 * this.deps.sweepMs, maxMs: MAX_RETRY_DELAY_MS }) });
      this.deps.log.warn({ err, searchId: id, attempts }, 'lead search clean-up failed; will retry');
    }
  }
}

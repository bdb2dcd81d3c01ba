import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { LeasedQueue } from '@leadforge/kit/work';
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

/** How long one clean-up is left to the replica that claimed it (a settlement waits on billing). */
const SWEEP_LEASE_MS = 30_000;

interface SweptSearch { id: string; status: string; attempts: number }

/**
 * The safety net that makes sure no search holds credits for ever: searches the engine went quiet
 * on end at their deadline with what they have; ended searches whose credits billing has not yet
 * settled are settled; searches whose hold billing never confirmed are cleaned up. The searches that
 * need one of these are the rows of a kit LeasedQueue (lead_searches itself): a replica claims one
 * under a lease, one that fails is retried after a jittered growing pause, and one still in need
 * after its clean-up is looked at again `sweepMs` later. It runs at start, so after a restart nothing
 * is left behind; a jittered growing pause while the database fails, a graceful stop.
 */
export class SearchSweeper {
  private readonly queue: LeasedQueue<SweptSearch>;

  constructor(private readonly deps: SweeperDeps) {
    const { db, log, sweepMs } = deps;
    const ago = (ms: number) => `now() - ${Math.trunc(ms)} * interval '1 millisecond'`;
    this.queue = new LeasedQueue<SweptSearch>({
      queue: 'sweeper',
      // Never parked: a clean-up is retried until it succeeds.
      table: {
        table: 'lead_searches', parked: 'false', order: 'created_at', dueColumn: 'sweep_due_at',
        pending: `(status = 'running' AND deadline_at < ${ago(deps.deadlineGraceMs)})`
          + ` OR (finished_at IS NOT NULL AND (credits = 'held' OR finished_seq IS NULL))`
          + ` OR (status = 'reserving' AND created_at < ${ago(deps.stuckReservationMs)})`,
      },
      db,
      logger: log,
      service: 'leads',
      leaseMs: SWEEP_LEASE_MS,
      pollMs: sweepMs,
      retry: { baseMs: 2 * sweepMs, maxMs: MAX_RETRY_DELAY_MS },
      work: async (search) => {
        try {
          await this.clean(search);
          return { kind: 'done' };
        } catch (err) {
          log.warn({ err, searchId: search.id, attempts: search.attempts }, 'lead search clean-up failed; will retry');
          throw err;
        }
      },
      // A search still in need (billing not settled yet) is looked at again at the next sweep, not at once.
      done: () => ({ attempts: 0, sweep_due_at: db.raw(`now() + ?::integer * interval '1 millisecond'`, [sweepMs]) }),
      park: () => ({}),
    });
  }

  start(): void {
    this.queue.start();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  /** What the search needs, by the state it was claimed in (the queue's `pending` says which states). */
  private async clean(search: SweptSearch): Promise<void> {
    if (search.status === 'running') await this.endAtDeadline(search.id);
    else if (search.status === 'reserving') await this.deps.abandon(search.id);
    else await this.deps.settlement.settle(search.id);
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
}

import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { emitEvent, type OutboxRelay } from '@leadforge/kit/events';
import { settlementsTotal } from '../metrics.ts';
import type { CreditHolds } from './creditHolds.ts';
import { afterCommit, appendFeedEvent, type FeedSignals } from './searchFeed.ts';
import { chargeOf, findSearch, isFinished, lockSearch, publicStatus, statsOf, type SearchRow, type Trx } from './searchRecord.ts';

export interface SettlementDeps {
  db: Db;
  holds: CreditHolds;
  relay: OutboxRelay;
  signals: FeedSignals;
  log: Logger;
  /**
   * The user's webhooks (and the search's monitor) hear of its end in the transaction that closes its
   * books: `queue` answers how many deliveries it queued there, `wake` sends them once it commits.
   */
  endDeliveries: { queue(trx: Trx, search: SearchRow): Promise<number>; wake(): void };
}

/**
 * Closes the books of an ended search: the credits it held are settled with billing (1 per delivered
 * lead, the rest given back; all given back for a failed search), `search.completed` is announced and
 * the feed gets its `finished` event. Safe to run any number of times, from any replica: billing is
 * idempotent and each step here happens once under the row lock. If billing does not answer, the
 * feed still finishes (with the expected figures), the promise rejects and the sweeper settles later.
 */
export class SearchSettlement {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly deps: SettlementDeps) {}

  /** Rejects when billing could not be reached (the feed has finished anyway); the sweeper retries. */
  settle(searchId: string): Promise<void> {
    let job = this.running.get(searchId);
    if (!job) {
      job = this.settleOnce(searchId).finally(() => this.running.delete(searchId));
      this.running.set(searchId, job);
    }
    return job;
  }

  /** Settles without making the caller wait; a failure is logged and left to the sweeper. */
  settleInBackground(searchId: string): void {
    this.settle(searchId).catch((err) => this.deps.log.warn({ err, searchId }, 'could not settle a search with billing yet; the sweeper will retry'));
  }

  private async settleOnce(searchId: string): Promise<void> {
    const { db, holds } = this.deps;
    const search = await findSearch(db, searchId);
    if (!search || !isFinished(search)) return;
    if (search.credits === 'held' && search.reservation_id) {
      const charge = chargeOf(search);
      let answer;
      try {
        answer = charge > 0 ? await holds.settle(search.reservation_id, charge) : await holds.release(search.reservation_id);
      } catch (err) {
        // The user still sees the search end now; the credits follow when billing answers.
        settlementsTotal.inc({ outcome: 'deferred' });
        await this.record(searchId, (trx, locked) => this.finishFeed(trx, locked));
        throw err;
      }
      const { charged, balance } = answer;
      await this.record(searchId, (trx, locked) => this.closeBooks(trx, locked, charge > 0 ? 'settled' : 'released', charged, balance));
      return;
    }
    await this.record(searchId, (trx, locked) => this.finishFeed(trx, locked));
  }

  private async record(searchId: string, work: (trx: Trx, search: SearchRow) => Promise<void>): Promise<void> {
    await this.deps.db.transaction(async (trx) => {
      const locked = await lockSearch(trx, searchId);
      if (!locked) return;
      await work(trx, locked);
      afterCommit(trx, () => {
        this.deps.relay.wake();
        this.deps.signals.changed(searchId);
      });
    });
  }

  private async closeBooks(trx: Trx, search: SearchRow, credits: 'settled' | 'released', charged: number, balance: number): Promise<void> {
    if (search.credits !== 'held') return;
    const [settled]: SearchRow[] = await trx('lead_searches').where({ id: search.id }).update({
      credits,
      credits_used: charged,
      remaining_credits: balance,
      settled_at: trx.fn.now(),
    }).returning('*');
    afterCommit(trx, () => settlementsTotal.inc({ outcome: credits }));
    await emitEvent(trx, 'search.completed', search.id, {
      search_id: search.id,
      user_id: search.user_id,
      results_count: settled.leads_count,
      credits_used: charged,
      industry: settled.industry,
      location: settled.location,
      status: publicStatus(settled.status),
      reason: settled.reason,
      timestamp: new Date().toISOString(),
    });
    const { endDeliveries } = this.deps;
    if (await endDeliveries.queue(trx, settled)) afterCommit(trx, () => endDeliveries.wake());
    await this.finishFeed(trx, settled);
  }

  private async finishFeed(trx: Trx, search: SearchRow): Promise<void> {
    if (search.finished_seq !== null) return;
    await appendFeedEvent(trx, search.id, 'finished', {
      status: publicStatus(search.status),
      reason: search.reason,
      error: search.error,
      ...(search.error_code ? { error_code: search.error_code } : {}),
      ...(search.error_candidates?.length ? { error_candidates: search.error_candidates } : {}),
      stats: statsOf(search),
    });
  }
}

import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@leadforge/kit/db';
import { emitEvent, type OutboxRelay } from '@leadforge/kit/events';
import { HttpError, serviceUnavailable, tooManyRequests } from '@leadforge/kit/http';
import { tooManyRunningSearchesDetail, type GenerateLeadsRequest } from '@leadforge/contracts';
import type { CreditHolds } from './creditHolds.ts';
import { searchesTotal } from '../metrics.ts';
import { afterCommit } from './searchFeed.ts';
import { lockSearch, type SearchRow } from './searchRecord.ts';
import { engineAskFor } from './ownedBusinesses.ts';
import { lockLiveAccount } from './erasedAccounts.ts';

export interface StartDeps {
  db: Db;
  holds: CreditHolds;
  relay: OutboxRelay;
  maxRunningPerUser: number;
  searchDeadlineMs: number;
  ownershipWindowDays: number;
  /** Gives back a hold that may or may not exist (billing did not answer); see StuckReservations. */
  abandon: (searchId: string) => Promise<void>;
}

export const BILLING_UNAVAILABLE = 'Your credits could not be reserved right now, so the search did not start and nothing was charged. Please try again in a moment.';

/**
 * Starts a search: takes one of the user's running-search slots, holds `quantity` credits with
 * billing (402 with billing's detail when short), then records it running and asks the engine for
 * it (`search.requested`, through the outbox, in the same transaction).
 */
/** A search that is a monitor's run: recorded as the run's search in the transaction that stores it. */
export interface MonitorRunStart {
  monitorId: string;
  runId: string;
}

/** The monitor's run already has a search (a second "run now" of the same moment, a second replica). */
export class RunAlreadyStarted extends Error {
  constructor(readonly searchId: string) {
    super(`the run already started search ${searchId}`);
  }
}

export async function startSearch(deps: StartDeps, userId: string, request: GenerateLeadsRequest, run?: MonitorRunStart): Promise<SearchRow> {
  const { db, holds } = deps;
  const id = uuidv7();
  await db.transaction(async (trx) => {
    // One start at a time per user, so two tabs cannot both take the last slot; none once the account is erased.
    await lockLiveAccount(trx, userId);
    if (run) {
      // Under the run's lock, so of two starts of one run the second sees the first's search. A search
      // that is gone (billing refused it, or its hold was abandoned) leaves the run free to start again.
      const current = await trx('monitor_runs').where({ id: run.runId }).forUpdate().first('search_id');
      if (current?.search_id && await trx('lead_searches').where({ id: current.search_id }).first('id')) throw new RunAlreadyStarted(current.search_id);
    }
    const [{ running }] = await trx('lead_searches').where({ user_id: userId }).whereIn('status', ['reserving', 'running']).count({ running: '*' });
    if (Number(running) >= deps.maxRunningPerUser) throw tooManyRequests(tooManyRunningSearchesDetail(deps.maxRunningPerUser));
    await trx('lead_searches').insert({
      id,
      user_id: userId,
      industry: request.industry.trim(),
      location: request.location.trim(),
      quantity: request.quantity,
      include_owned: request.include_owned === true,
      deadline_at: new Date(Date.now() + deps.searchDeadlineMs),
      monitor_id: run?.monitorId ?? null,
    });
    if (run) await trx('monitor_runs').where({ id: run.runId }).update({ search_id: id });
  });

  let hold;
  try {
    hold = await holds.hold(userId, request.quantity, id);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode >= 400 && err.statusCode < 500) {
      // Billing refused (402: not enough credits): nothing is held, and there is no search to show.
      await db('lead_searches').where({ id, status: 'reserving' }).del();
      throw err;
    }
    await deps.abandon(id).catch(() => undefined);
    throw serviceUnavailable(BILLING_UNAVAILABLE, 'billing_unavailable');
  }

  try {
    return await db.transaction(async (trx) => {
      // The account may have been erased (with this search) while billing held the credits.
      await lockLiveAccount(trx, userId);
      const search = await lockSearch(trx, id);
      if (!search || search.status !== 'reserving') throw serviceUnavailable(BILLING_UNAVAILABLE, 'billing_unavailable');
      const deadline = new Date(Date.now() + deps.searchDeadlineMs);
      const ask = await engineAskFor(trx, userId, search.location, search.quantity, search.include_owned, search.monitor_id ? null : deps.ownershipWindowDays);
      const [running]: SearchRow[] = await trx('lead_searches').where({ id }).update({
        engine_quantity: ask.quantity,
        status: 'running',
        credits: 'held',
        reservation_id: hold.reservation_id,
        remaining_credits: hold.balance,
        deadline_at: deadline,
      }).returning('*');
      await emitEvent(trx, 'search.requested', id, {
        search_id: id,
        user_id: userId,
        industry: running.industry,
        location: running.location,
        quantity: ask.quantity,
        deadline_at: deadline.toISOString(),
        ...(ask.knownBusinessKeys ? { known_business_keys: ask.knownBusinessKeys } : {}),
        ...(running.monitor_id ? { monitor_id: running.monitor_id } : {}),
      });
      afterCommit(trx, () => {
        deps.relay.wake();
        searchesTotal.inc({ outcome: 'started' });
      });
      return running;
    });
  } catch (err) {
    if (err instanceof HttpError && err.code === 'account_inactive') await deps.holds.release(hold.reservation_id).catch(() => undefined);
    throw err;
  }
}

import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import { HttpError } from '@leadforge/kit/http';
import { findSearch } from '../domain/searchRecord.ts';
import { RunAlreadyStarted, startSearch, type StartDeps } from '../domain/searchStart.ts';
import { afterCommit } from '../domain/searchFeed.ts';
import type { CreditHolds } from '../domain/creditHolds.ts';
import type { MonitorRow, MonitorRunRow } from './monitorRecord.ts';

export interface RunStartDeps {
  db: Db;
  holds: CreditHolds;
  startDeps: StartDeps;
  /** Cleans up a search whose hold was never confirmed (abandonUnconfirmedHold). */
  abandon: (searchId: string) => Promise<void>;
  wakeRelay: () => void;
}

export type RunStart = (
  | { kind: 'started'; searchId: string }
  | { kind: 'insufficient_credits' }
  /** Not run: the monitor is paused, or was rescheduled since it was claimed. */
  | { kind: 'skipped' }
) & {
  /** The monitor as it stood under its lock when the run was decided; undefined once deleted. */
  monitor: MonitorRow | undefined;
};

/**
 * Starts the run of a monitor for one due time (a scheduled due time, or now for "run now"). The run
 * row is unique per monitor and due time and its search is recorded with the search itself, so a
 * repeat (another replica, a retry after a crash) finds the run already started and starts nothing.
 * The run holds what the balance allows, up to max_leads_per_run; with no credit at all it is recorded
 * `insufficient_credits`, nothing charged, and the user is told (`monitor.run.completed`).
 */
export async function startMonitorRun(deps: RunStartDeps, monitor: MonitorRow, dueAt: Date, trigger: 'schedule' | 'manual'): Promise<RunStart> {
  const { db } = deps;
  let locked: MonitorRow | undefined;
  const run = await db.transaction(async (trx): Promise<MonitorRunRow | undefined> => {
    // Under the monitor's lock: a pause or a reschedule either comes before (and this run is not made) or after.
    locked = await trx('monitors').where({ id: monitor.id }).forUpdate().first();
    if (!locked) return undefined;
    if (trigger === 'schedule' && (locked.status !== 'active' || new Date(locked.next_run_at).getTime() !== dueAt.getTime())) return undefined;
    await trx('monitor_runs').insert({ id: uuidv7(), monitor_id: monitor.id, due_at: dueAt, trigger }).onConflict(['monitor_id', 'due_at']).ignore();
    return trx('monitor_runs').where({ monitor_id: monitor.id, due_at: dueAt }).first();
  });
  if (!run) return { kind: 'skipped', monitor: locked };
  if (run.outcome === 'insufficient_credits') return { kind: 'insufficient_credits', monitor: locked };
  if (run.search_id) {
    const search = await findSearch(db, run.search_id);
    if (search && search.status !== 'reserving') return { kind: 'started', searchId: search.id, monitor: locked };
    // An earlier attempt died while its credits were being held: give them back, then start afresh.
    if (search) await deps.abandon(search.id);
  }

  let balance = await deps.holds.balance(monitor.user_id);
  // Twice at most: the balance read may be spent by another search before the hold (billing then says 402).
  for (let tries = 0; tries < 2; tries++) {
    const quantity = Math.min(balance, monitor.max_leads_per_run);
    if (quantity <= 0) break;
    try {
      const search = await startSearch(deps.startDeps, monitor.user_id, { industry: monitor.industry, location: monitor.location, quantity }, { monitorId: monitor.id, runId: run.id });
      return { kind: 'started', searchId: search.id, monitor: locked };
    } catch (err) {
      if (err instanceof RunAlreadyStarted) return { kind: 'started', searchId: err.searchId, monitor: locked };
      if (!(err instanceof HttpError && err.statusCode === 402)) {
        // A run now that did not start (all the user's searches running, billing away) is no run: it would
        // show as running forever. A scheduled one keeps its row: the scheduler tries that due time again.
        if (trigger === 'manual') await db('monitor_runs').where({ id: run.id }).whereNull('outcome').delete();
        throw err;
      }
      balance = await deps.holds.balance(monitor.user_id);
    }
  }

  const startedMeanwhile = await db.transaction(async (trx): Promise<string | undefined> => {
    // Under the run's lock, as startSearch takes it: another start of this run (a replica that took it
    // over, a retry) may have started its search and held the credits this one found missing. That
    // run is started, not out of credits.
    const current = await trx('monitor_runs').where({ id: run.id }).forUpdate().first('outcome', 'search_id');
    if (!current || current.outcome) return undefined;
    if (current.search_id && await trx('lead_searches').where({ id: current.search_id }).first('id')) return current.search_id;
    await trx('monitor_runs').where({ id: run.id }).update({ outcome: 'insufficient_credits', search_id: null, finished_at: trx.fn.now() });
    await emitEvent(trx, 'monitor.run.completed', monitor.id, {
      monitor_id: monitor.id,
      user_id: monitor.user_id,
      search_id: null,
      industry: monitor.industry,
      location: monitor.location,
      status: 'insufficient_credits',
      new_leads: 0,
      credits_used: 0,
      notify_email: monitor.notify_email,
      timestamp: new Date().toISOString(),
    });
    afterCommit(trx, deps.wakeRelay);
    return undefined;
  });
  if (startedMeanwhile) return { kind: 'started', searchId: startedMeanwhile, monitor: locked };
  return { kind: 'insufficient_credits', monitor: locked };
}

import { v7 as uuidv7 } from 'uuid';
import type { CreateMonitorRequest, Monitor, MonitorFrequency, MonitorRun, MonitorRunStatus } from '@leadforge/contracts';
import { chargeOf, type DbOrTrx, type SearchRow } from '../domain/searchRecord.ts';

/** One row of monitors (migration 007). */
export interface MonitorRow {
  id: string;
  user_id: string;
  industry: string;
  location: string;
  max_leads_per_run: number;
  frequency: MonitorFrequency;
  status: 'active' | 'paused';
  notify_email: boolean;
  next_run_at: Date;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
}

/** One row of monitor_runs. */
export interface MonitorRunRow {
  id: string;
  monitor_id: string;
  due_at: Date;
  trigger: 'schedule' | 'manual';
  search_id: string | null;
  outcome: 'insufficient_credits' | null;
  started_at: Date;
  finished_at: Date | null;
}

/** Monitors one user may have. */
export const MAX_MONITORS_PER_USER = 100;

const DAY_MS = 24 * 3600_000;
export const periodOf = (frequency: MonitorFrequency): number => (frequency === 'weekly' ? 7 * DAY_MS : DAY_MS);

/** The first due time after `now` on the monitor's cadence from `from` (a replica down for days does not run it once per missed day). */
export function nextDueAfter(from: Date, frequency: MonitorFrequency, now: Date): Date {
  const period = periodOf(frequency);
  const missed = Math.max(0, Math.floor((now.getTime() - from.getTime()) / period) + 1);
  return new Date(from.getTime() + missed * period);
}

/** When the scheduler may start the run due at `dueAt`: a random moment of the spread after it. */
export const attemptAtFor = (dueAt: Date, spreadMs: number, random = Math.random): Date => new Date(dueAt.getTime() + Math.floor(random() * spreadMs));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A monitor of this user, or undefined: another user's id, a malformed id and a missing one look alike. */
export async function findOwnMonitor(db: DbOrTrx, userId: string, id: string): Promise<MonitorRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db('monitors').where({ id, user_id: userId }).first();
}

export async function createMonitor(db: DbOrTrx, userId: string, request: CreateMonitorRequest, spreadMs: number): Promise<MonitorRow> {
  const now = new Date();
  const nextRunAt = new Date(now.getTime() + periodOf(request.frequency));
  const [row]: MonitorRow[] = await db('monitors').insert({
    id: uuidv7(),
    user_id: userId,
    industry: request.industry.trim(),
    location: request.location.trim(),
    max_leads_per_run: request.max_leads_per_run,
    frequency: request.frequency,
    notify_email: request.notify_email === true,
    next_run_at: nextRunAt,
    next_attempt_at: attemptAtFor(nextRunAt, spreadMs),
  }).returning('*');
  return row;
}

interface RunWithSearch extends MonitorRunRow {
  search: SearchRow | undefined;
}

/** The latest runs of these monitors (newest first), each with its search. */
export async function runsOf(db: DbOrTrx, monitorIds: string[], perMonitor: number): Promise<Map<string, RunWithSearch[]>> {
  const byMonitor = new Map<string, RunWithSearch[]>(monitorIds.map((id) => [id, []]));
  if (!monitorIds.length) return byMonitor;
  const ranked = db('monitor_runs')
    .whereIn('monitor_id', monitorIds)
    .select('*', db.raw('row_number() OVER (PARTITION BY monitor_id ORDER BY started_at DESC, id DESC) AS rank'));
  const runs: (MonitorRunRow & { rank: string })[] = await db.from(ranked.as('r')).where('rank', '<=', perMonitor).orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  const searchIds = runs.map((run) => run.search_id).filter((id): id is string => id !== null);
  const searches: SearchRow[] = searchIds.length ? await db('lead_searches').whereIn('id', searchIds) : [];
  const searchById = new Map(searches.map((search) => [search.id, search]));
  for (const run of runs) byMonitor.get(run.monitor_id)!.push({ ...run, search: run.search_id ? searchById.get(run.search_id) : undefined });
  return byMonitor;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function runStatus(run: RunWithSearch): MonitorRunStatus {
  if (run.outcome === 'insufficient_credits') return 'insufficient_credits';
  if (!run.search || run.search.status === 'reserving') return 'running';
  return run.search.status;
}

export function toRun(run: RunWithSearch): MonitorRun {
  const search = run.search && run.search.status !== 'reserving' ? run.search : undefined;
  return {
    search_id: search ? search.id : null,
    status: runStatus(run),
    // A run skips what the user has, so each lead it delivered is new (and charged).
    new_leads: search ? search.leads_count - search.owned_count : 0,
    credits_used: search ? (search.credits === 'held' ? chargeOf(search) : search.credits_used) : 0,
    trigger: run.trigger,
    started_at: iso(run.started_at),
    finished_at: run.finished_at ? iso(run.finished_at) : search?.finished_at ? iso(search.finished_at) : null,
  };
}

export function toMonitor(row: MonitorRow, runs: RunWithSearch[]): Monitor {
  return {
    id: row.id,
    industry: row.industry,
    location: row.location,
    max_leads_per_run: row.max_leads_per_run,
    frequency: row.frequency,
    status: row.status,
    notify_email: row.notify_email,
    next_run_at: row.status === 'active' ? iso(row.next_run_at) : null,
    created_at: iso(row.created_at),
    last_run: runs[0] ? toRun(runs[0]) : null,
  };
}

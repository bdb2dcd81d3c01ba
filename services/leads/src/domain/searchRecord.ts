import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';
import type { LeadSearchSummary, LeadStats, SearchCoverage, SearchFailureCode, SearchProgress, SearchStatus } from '@leadforge/contracts';

export type Trx = Knex.Transaction;
export type DbOrTrx = Db | Trx;

export type StoredStatus = 'reserving' | SearchStatus;
export type CreditsState = 'none' | 'held' | 'settled' | 'released';

/** One row of lead_searches. */
export interface SearchRow {
  id: string;
  user_id: string;
  industry: string;
  location: string;
  quantity: number;
  status: StoredStatus;
  reason: string | null;
  error: string | null;
  /** Why it failed, as the engine's code (011); null otherwise. */
  error_code: SearchFailureCode | null;
  /** Places to search instead (011); null when none. */
  error_candidates: string[] | null;
  credits: CreditsState;
  reservation_id: string | null;
  leads_count: number;
  with_email: number;
  with_phone: number;
  with_website: number;
  credits_used: number;
  remaining_credits: number | null;
  places_found: number;
  websites_checked: number;
  /** Delivered leads the user already owned (include_owned): free. */
  owned_count: number;
  /** Owned businesses left out. */
  skipped_owned: number;
  include_owned: boolean;
  /** What the search covered, as the engine last said (null until it has). */
  coverage: SearchCoverage | null;
  /** What the engine was asked for (null before 003: the quantity). */
  engine_quantity: number | null;
  /** The monitor this search is a run of (007), or null. */
  monitor_id: string | null;
  last_seq: number;
  finished_seq: number | null;
  deadline_at: Date;
  created_at: Date;
  finished_at: Date | null;
  settled_at: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A search of this user, or undefined: another user's id, a malformed id and a missing one look alike. */
export async function findOwnSearch(db: DbOrTrx, userId: string, id: string): Promise<SearchRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const row: SearchRow | undefined = await db('lead_searches').where({ id, user_id: userId }).whereNot({ status: 'reserving' }).first();
  return row;
}

export async function findSearch(db: DbOrTrx, id: string): Promise<SearchRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db('lead_searches').where({ id }).first();
}

/** Locks the search row for the rest of the transaction: intake, finishing and the feed take turns. */
export async function lockSearch(trx: Trx, id: string): Promise<SearchRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return trx('lead_searches').where({ id }).forUpdate().first();
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** While a search is still being set up it is shown as running: it is, as far as the user can tell. */
export const publicStatus = (status: StoredStatus): SearchStatus => (status === 'reserving' ? 'running' : status);

export function toSummary(row: SearchRow): LeadSearchSummary {
  return {
    id: row.id,
    industry: row.industry,
    location: row.location,
    quantity: row.quantity,
    status: publicStatus(row.status),
    reason: row.reason,
    error: row.error,
    ...(row.error_code ? { error_code: row.error_code } : {}),
    ...(row.error_candidates?.length ? { error_candidates: row.error_candidates } : {}),
    leads_count: row.leads_count,
    credits_used: statsOf(row).credits_used,
    created_at: iso(row.created_at)!,
    finished_at: iso(row.finished_at),
    monitor_id: row.monitor_id ?? null,
  };
}

/**
 * The spec's stats. total_found counts the leads delivered (what the table shows and what is
 * charged). While credits are held, credits_used is what the search will charge for the leads so
 * far and remaining_credits what the user will have if it stopped now; once settled, billing's figures.
 */
export function statsOf(row: SearchRow): LeadStats {
  const held = row.credits === 'held';
  const creditsUsed = held ? chargeOf(row) : row.credits_used;
  const remaining = row.remaining_credits === null ? 0 : held ? row.remaining_credits + row.quantity - creditsUsed : row.remaining_credits;
  return {
    total_found: row.leads_count,
    with_email: row.with_email,
    with_phone: row.with_phone,
    with_website: row.with_website,
    credits_used: creditsUsed,
    remaining_credits: remaining,
    skipped_owned: row.skipped_owned,
    ...(row.coverage ? { coverage: row.coverage } : {}),
  };
}

/** What a search charges: 1 credit per delivered lead the user did not already own; nothing if it failed. */
export const chargeOf = (row: SearchRow): number => (row.status === 'failed' ? 0 : row.leads_count - row.owned_count);

export function progressOf(row: SearchRow): SearchProgress {
  return {
    places_found: row.places_found, websites_checked: row.websites_checked, leads_found: row.leads_count, skipped_owned: row.skipped_owned,
    ...(row.coverage ? { coverage: row.coverage } : {}),
  };
}

export const isFinished = (row: SearchRow) => row.status !== 'reserving' && row.status !== 'running';

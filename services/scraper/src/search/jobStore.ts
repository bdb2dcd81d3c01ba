import type { Knex } from 'knex';
import type { EventData } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import type { QueueMeasure } from '@leadforge/kit/work';
import { activeTraceparent } from '@leadforge/kit/tracing';
import { lockAccountForWrite } from './erasedAccounts.ts';

export interface JobRow {
  search_id: string;
  user_id: string;
  industry: string;
  location: string;
  quantity: number;
  deadline_at: Date;
  state: 'queued' | 'running' | 'finished';
  cancel_requested: boolean;
  lease_owner: string | null;
  lease_replica: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  places_found: number;
  websites_checked: number;
  leads_sent: number;
  with_email: number;
  with_phone: number;
  with_website: number;
  finish_reason: string | null;
  traceparent: string | null;
  /** Lead intake's keys of businesses the user already has: not crawled, not counted. */
  known_business_keys: string[];
  known_skipped: number;
  /** A monitor's run: it skips sites found empty within SCRAPER_EMPTY_SITE_CACHE_HOURS. */
  monitor_run: boolean;
}

/** Records a requested search; a redelivered request changes nothing, nor does one of an erased account. */
export async function recordSearch(trx: Knex.Transaction, data: EventData<'search.requested'>): Promise<void> {
  // Requested before the account's deletion but arriving after its erasure: nothing of it is kept.
  if ((await lockAccountForWrite(trx, data.user_id)).erased) return;
  const deadline = Number.isNaN(Date.parse(data.deadline_at)) ? new Date(Date.now() + 10 * 60_000) : new Date(data.deadline_at);
  await trx('scraper_jobs').insert({
    search_id: data.search_id,
    user_id: data.user_id,
    industry: data.industry,
    location: data.location,
    quantity: Math.max(0, data.quantity),
    deadline_at: deadline,
    known_business_keys: JSON.stringify(data.known_business_keys ?? []),
    monitor_run: Boolean(data.monitor_id),
    traceparent: activeTraceparent() ?? null,
  }).onConflict('search_id').ignore();
}

/** Marks a search cancelled; its worker notices at its next heartbeat or commit. */
export async function requestCancel(trx: Knex.Transaction, searchId: string): Promise<void> {
  await trx('scraper_jobs').where({ search_id: searchId }).whereNot({ state: 'finished' }).update({ cancel_requested: true, updated_at: trx.fn.now() });
}

/** Who claims: this process (`owner`, unique per start) and, when known, its replica (the same after a restart). */
export interface Claimant {
  owner: string;
  /** Only ever one live process at a time: a replica's hostname and port, or the embedded database's one process. */
  replica?: string;
}

/**
 * Claims the oldest open job whose lease is free or expired, or held by an earlier process of the
 * same replica (it died: a replica runs one process at a time), so a restart resumes its searches
 * at once rather than after their leases. Row locks are skipped by concurrent claimers, so two
 * workers never claim the same job at once.
 */
export async function claimJob(db: Db, claimant: Claimant, leaseMs: number): Promise<JobRow | undefined> {
  const replica = claimant.replica ?? null;
  const result = await db.raw(
    `UPDATE scraper_jobs
        SET state = 'running', lease_owner = ?, lease_replica = ?::text, lease_expires_at = now() + ?::integer * interval '1 millisecond',
            attempts = attempts + 1, updated_at = now()
      WHERE search_id = (
        SELECT search_id FROM scraper_jobs
         WHERE state <> 'finished'
           AND (lease_expires_at IS NULL OR lease_expires_at < now() OR (lease_replica = ?::text AND lease_owner <> ?))
         ORDER BY created_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [claimant.owner, replica, leaseMs, replica, claimant.owner],
  );
  return result.rows[0];
}

/** Extends the lease; undefined when another worker took the job (or it finished). */
export async function renewLease(db: Db, searchId: string, owner: string, leaseMs: number): Promise<{ cancelRequested: boolean } | undefined> {
  const result = await db.raw(
    `UPDATE scraper_jobs SET lease_expires_at = now() + ?::integer * interval '1 millisecond'
      WHERE search_id = ? AND lease_owner = ? AND state = 'running'
      RETURNING cancel_requested`,
    [leaseMs, searchId, owner],
  );
  const row = result.rows[0];
  return row ? { cancelRequested: row.cancel_requested } : undefined;
}

/** Gives a job up at shutdown so another replica takes it at once rather than after the lease. */
export async function releaseLease(db: Db, searchId: string, owner: string): Promise<void> {
  await db('scraper_jobs').where({ search_id: searchId, lease_owner: owner, state: 'running' })
    .update({ lease_expires_at: db.fn.now(), updated_at: db.fn.now() });
}

/** The job row, locked for this transaction, if this worker still owns it. */
export async function lockOwnedJob(trx: Knex.Transaction, searchId: string, owner: string): Promise<JobRow | undefined> {
  const row = await trx('scraper_jobs').where({ search_id: searchId }).forUpdate().first();
  return row && row.lease_owner === owner && row.state === 'running' ? row : undefined;
}

export async function processedPlaceKeys(db: Db, searchId: string): Promise<Set<string>> {
  const rows: { place_key: string }[] = await db('scraper_job_places').where({ search_id: searchId }).select('place_key');
  return new Set(rows.map((row) => row.place_key));
}

export async function contactKeysTaken(trx: Knex.Transaction, searchId: string, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows: { contact_key: string }[] = await trx('scraper_job_places').where({ search_id: searchId }).whereIn('contact_key', keys).select('contact_key');
  return new Set(rows.map((row) => row.contact_key));
}

export async function readJob(db: Db, searchId: string): Promise<JobRow | undefined> {
  return db('scraper_jobs').where({ search_id: searchId }).first();
}

export type OpenJobState = 'queued' | 'running';

/** Open jobs by state, over the partial index of open jobs: cheap enough for every metrics scrape. */
export async function countOpenJobs(db: Db): Promise<Record<OpenJobState, number>> {
  const rows: { state: OpenJobState; jobs: string | number }[] = await db('scraper_jobs')
    .whereNot({ state: 'finished' }).groupBy('state').select('state').count({ jobs: '*' });
  const counts = { queued: 0, running: 0 };
  for (const row of rows) counts[row.state] = Number(row.jobs);
  return counts;
}

/**
 * The jobs as the kit's per-queue gauges see them: open jobs and the age of the oldest. None is ever
 * parked: a job given up after its attempts finishes its search (source_failed, nothing charged).
 */
export async function measureJobQueue(db: Db): Promise<QueueMeasure> {
  const [row] = await db('scraper_jobs').whereNot({ state: 'finished' })
    .select(db.raw('count(*) AS depth'), db.raw('coalesce(extract(epoch FROM now() - min(created_at)), 0) AS oldest'));
  return { depth: Number(row.depth), oldestAgeSeconds: Number(row.oldest), parked: 0 };
}

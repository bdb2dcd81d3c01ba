import type { Knex } from 'knex';
import type { EventData } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import type { QueueDeclaration } from '@leadforge/kit/work';
import { activeTraceparent } from '@leadforge/kit/tracing';
import { lockAccountForWrite } from './erasedAccounts.ts';
import type { Lead } from './leadOfPlace.ts';

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
 * The jobs as the kit's job queue sees them: open jobs are claimed oldest first under a lease
 * (`lease_expires_at`), a restarted replica takes back its dead process's jobs at once
 * (`lease_replica`). None is ever parked: a job given up after its attempts finishes its search
 * (source_failed, nothing charged).
 */
export const SEARCH_JOBS: QueueDeclaration = {
  queue: 'jobs',
  table: {
    table: 'scraper_jobs', key: 'search_id', pending: "state <> 'finished'", parked: 'false', order: 'created_at',
    dueColumn: 'lease_expires_at', replicaColumn: 'lease_replica',
  },
};

/** The columns of a job that has finished (besides its reason): no lease any more. */
export const finishedJob = (db: Db | Knex.Transaction) => ({
  state: 'finished', finished_at: db.fn.now(), updated_at: db.fn.now(), lease_replica: null, lease_expires_at: null,
});

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

export interface PlaceRecord {
  search_id: string;
  place_key: string;
  outcome: 'lead' | 'no_contact' | 'duplicate' | 'failed';
  contact_key: string | null;
}

/** Records the places a batch dealt with; answers the keys recorded now (a place recorded before, by an earlier run, is not). */
export async function recordPlaces(trx: Knex.Transaction, places: PlaceRecord[]): Promise<Set<string>> {
  if (!places.length) return new Set();
  const inserted: { place_key: string }[] = await trx('scraper_job_places').insert(places).onConflict(['search_id', 'place_key']).ignore().returning('place_key');
  return new Set(inserted.map((row) => row.place_key));
}

export interface JobProgress {
  /** Places the run has seen so far, and known businesses it skipped: the largest count any run reached is kept. */
  placesSeen: number;
  knownSkipped: number;
  websitesChecked: number;
  /** The leads of this batch that are sent. */
  sent: Pick<Lead, 'email' | 'phone' | 'website'>[];
}

/** Adds a batch's figures to the job; answers the job as it stands now. */
export async function addProgress(trx: Knex.Transaction, searchId: string, progress: JobProgress): Promise<JobRow> {
  const { sent } = progress;
  const [updated] = await trx('scraper_jobs').where({ search_id: searchId }).update({
    places_found: trx.raw('GREATEST(places_found, ?)', [progress.placesSeen]),
    known_skipped: trx.raw('GREATEST(known_skipped, ?)', [progress.knownSkipped]),
    websites_checked: trx.raw('websites_checked + ?', [progress.websitesChecked]),
    leads_sent: trx.raw('leads_sent + ?', [sent.length]),
    with_email: trx.raw('with_email + ?', [sent.filter((lead) => lead.email).length]),
    with_phone: trx.raw('with_phone + ?', [sent.filter((lead) => lead.phone).length]),
    with_website: trx.raw('with_website + ?', [sent.filter((lead) => lead.website).length]),
    updated_at: trx.fn.now(),
  }).returning('*');
  return updated;
}

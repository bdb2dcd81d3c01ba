import type { Lead, RemovedField } from '@leadforge/contracts';
import type { DbOrTrx } from './searchRecord.ts';
import { withoutSuppressed } from './suppressions.ts';

export interface LeadRow {
  position: number;
  name: string;
  company: string;
  email: string;
  phone: string;
  website: string;
  city: string;
  address: string | null;
  country: string | null;
  socials: Lead['socials'] | string | null;
  /** Absent from rows stored before the column (read as null). */
  people?: Lead['people'] | string | null;
  source: string | null;
  place_id: string | null;
  email_deliverability: string | null;
  email_type: string | null;
  email_checked_at: Date | string | null;
  email_mx_host: string | null;
  email_smtp_code: number | null;
  email_source: string | null;
  email_fetched_at: Date | string | null;
  phone_type: string | null;
  phone_display: string | null;
  phone_source: string | null;
  phone_fetched_at: Date | string | null;
  owned: boolean;
  /** Fields an opt-out blanked: left empty by the search that found them (stored), or since (added when read). */
  removed: RemovedField[] | null;
}

export function toLead(row: LeadRow): Lead {
  const socials = typeof row.socials === 'string' ? JSON.parse(row.socials) : row.socials;
  const people = peopleOf(row);
  return {
    name: row.name,
    company: row.company,
    email: row.email,
    phone: row.phone,
    website: row.website,
    city: row.city,
    ...(row.address ? { address: row.address } : {}),
    ...(row.country ? { country: row.country } : {}),
    ...(socials?.length ? { socials } : {}),
    ...(people.length ? { people } : {}),
    ...(row.source ? { source: row.source } : {}),
    ...(row.place_id ? { place_id: row.place_id } : {}),
    ...verdictsOf(row),
    ...(row.owned ? { owned: true } : {}),
    ...(row.removed?.length ? { removed: row.removed } : {}),
  };
}

const isoTime = (value: Date | string): string => new Date(value).toISOString();

/** The row's people, however the driver read the jsonb column (parsed, or its text). */
export function peopleOf(row: Pick<LeadRow, 'people'>): NonNullable<Lead['people']> {
  const people = typeof row.people === 'string' ? JSON.parse(row.people) : row.people;
  return Array.isArray(people) ? people : [];
}

/** The row's verdict and provenance columns, those that are set. */
function verdictsOf(row: LeadRow): Partial<Lead> {
  return {
    ...(row.email_deliverability ? { email_deliverability: row.email_deliverability as Lead['email_deliverability'] } : {}),
    ...(row.email_type ? { email_type: row.email_type as Lead['email_type'] } : {}),
    ...(row.email_checked_at ? { email_checked_at: isoTime(row.email_checked_at) } : {}),
    ...(row.email_mx_host ? { email_mx_host: row.email_mx_host } : {}),
    ...(row.email_smtp_code !== null && row.email_smtp_code !== undefined ? { email_smtp_code: Number(row.email_smtp_code) } : {}),
    ...(row.email_source ? { email_source: row.email_source } : {}),
    ...(row.email_fetched_at ? { email_fetched_at: isoTime(row.email_fetched_at) } : {}),
    ...(row.phone_type ? { phone_type: row.phone_type } : {}),
    ...(row.phone_display ? { phone_display: row.phone_display } : {}),
    ...(row.phone_source ? { phone_source: row.phone_source } : {}),
    ...(row.phone_fetched_at ? { phone_fetched_at: isoTime(row.phone_fetched_at) } : {}),
  };
}

/** The verdict and provenance columns of the leads table. */
export const VERDICT_COLUMNS = [
  'email_deliverability', 'email_type', 'email_checked_at', 'email_mx_host', 'email_smtp_code', 'email_source', 'email_fetched_at', 'phone_type', 'phone_display', 'phone_source', 'phone_fetched_at',
] as const;

/**
 * A page of a search's leads in delivery order, after `afterPosition`. Positions are gap-free
 * (1, 2, 3... as delivered), so a page is a bounded range of the primary key: the same small cost at
 * any depth, whatever the planner's statistics say (embedded PGlite never refreshes them).
 */
export async function leadsPage(db: DbOrTrx, searchId: string, afterPosition: number, limit: number): Promise<LeadRow[]> {
  // Every view and export reads through here, so each blanks what opt-outs suppress.
  return withoutSuppressed(db, await storedLeadsPage(db, searchId, afterPosition, limit));
}

/** The leads of a search at these positions (a user's selection), in delivery order, suppressions blanked. */
export async function leadsAt(db: DbOrTrx, searchId: string, positions: number[]): Promise<LeadRow[]> {
  return withoutSuppressed(db, await db('leads').where({ search_id: searchId }).whereIn('position', positions).orderBy('position').select(LEAD_COLUMNS));
}

const LEAD_COLUMNS = [
  'position', 'name', 'company', 'email', 'phone', 'website', 'city', 'address', 'country', 'socials', 'people', 'source', 'place_id', 'owned', 'removed', ...VERDICT_COLUMNS,
];

function storedLeadsPage(db: DbOrTrx, searchId: string, afterPosition: number, limit: number): Promise<LeadRow[]> {
  return db('leads')
    .where({ search_id: searchId })
    .andWhereBetween('position', [afterPosition + 1, afterPosition + limit])
    .orderBy('position')
    .limit(limit)
    .select(LEAD_COLUMNS);
}

export async function allLeads(db: DbOrTrx, searchId: string): Promise<Lead[]> {
  return (await leadsPage(db, searchId, 0, 100_000)).map(toLead);
}

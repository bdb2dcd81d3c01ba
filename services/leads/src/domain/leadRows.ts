import type { Lead } from '@leadforge/contracts';
import type { DbOrTrx } from './searchRecord.ts';

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
  source: string | null;
  place_id: string | null;
}

export function toLead(row: LeadRow): Lead {
  const socials = typeof row.socials === 'string' ? JSON.parse(row.socials) : row.socials;
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
    ...(row.source ? { source: row.source } : {}),
    ...(row.place_id ? { place_id: row.place_id } : {}),
  };
}

/**
 * A page of a search's leads in delivery order, after `afterPosition`. Positions are gap-free
 * (1, 2, 3... as delivered), so a page is a bounded range of the primary key: the same small cost at
 * any depth, whatever the planner's statistics say (embedded PGlite never refreshes them).
 */
export async function leadsPage(db: DbOrTrx, searchId: string, afterPosition: number, limit: number): Promise<LeadRow[]> {
  return db('leads')
    .where({ search_id: searchId })
    .andWhereBetween('position', [afterPosition + 1, afterPosition + limit])
    .orderBy('position')
    .limit(limit)
    .select('position', 'name', 'company', 'email', 'phone', 'website', 'city', 'address', 'country', 'socials', 'source', 'place_id');
}

export async function allLeads(db: DbOrTrx, searchId: string): Promise<Lead[]> {
  return (await leadsPage(db, searchId, 0, 100_000)).map(toLead);
}

import type { Lead } from '@leadforge/contracts';
import { fingerprintOf, toStoredLead, verdictColumns, type IncomingLead } from './leadFields.ts';
import { leadsDelivered, timeToFirstLeadSeconds } from '../leadsMetrics.ts';
import { afterCommit, appendFeedEvent } from './searchFeed.ts';
import { statsOf, type SearchRow, type Trx } from './searchRecord.ts';

/**
 * Stores the engine's leads for a running search (row locked by the caller), in order, each business
 * once, never more than the quantity held for it, and announces the new ones on the feed. Returns
 * the search as it now stands. Leads for a search that has finished are ignored: they were not paid for.
 */
export async function takeLeads(trx: Trx, search: SearchRow, incoming: IncomingLead[]): Promise<SearchRow> {
  if (search.status !== 'running') return search;
  const accepted: Lead[] = [];
  let position = search.leads_count;
  let firstLeadStoredAt: Date | undefined;
  for (const raw of incoming) {
    if (position >= search.quantity) break;
    const lead = toStoredLead(raw);
    if (!lead.company && !lead.name) continue;
    const inserted = await trx('leads')
      .insert({
        search_id: search.id,
        position: position + 1,
        lead_key: raw.key.slice(0, 500),
        fingerprint: fingerprintOf(lead),
        name: lead.name,
        company: lead.company,
        email: lead.email,
        phone: lead.phone,
        website: lead.website,
        city: lead.city,
        address: lead.address ?? null,
        country: lead.country ?? null,
        socials: lead.socials ? JSON.stringify(lead.socials) : null,
        source: lead.source ?? null,
        place_id: lead.place_id ?? null,
        ...verdictColumns(lead),
      })
      .onConflict()
      .ignore()
      .returning(['position', 'created_at']);
    if (!inserted.length) continue;
    // Position 1 is the primary key's: only one insert ever stores it, however often results are replayed.
    if (inserted[0].position === 1) firstLeadStoredAt = new Date(inserted[0].created_at);
    position++;
    accepted.push(lead);
  }
  if (!accepted.length) return search;

  const count = (test: (lead: Lead) => boolean) => accepted.filter(test).length;
  const [updated]: SearchRow[] = await trx('lead_searches').where({ id: search.id }).update({
    leads_count: position,
    with_email: search.with_email + count((l) => l.email !== ''),
    with_phone: search.with_phone + count((l) => l.phone !== ''),
    with_website: search.with_website + count((l) => l.website !== ''),
  }).returning('*');
  await appendFeedEvent(trx, search.id, 'leads', { leads: accepted, leads_count: position, stats: statsOf(updated) });
  afterCommit(trx, () => {
    leadsDelivered.inc(accepted.length);
    // Both times are the database's: no skew with this pod's clock.
    if (firstLeadStoredAt) timeToFirstLeadSeconds.observe((firstLeadStoredAt.getTime() - new Date(search.created_at).getTime()) / 1000);
  });
  return updated;
}

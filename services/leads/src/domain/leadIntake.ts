import type { Lead } from '@leadforge/contracts';
import { cleanText, fingerprintOf, hasContact, leadKeyOf, toStoredLead, verdictColumns, type IncomingLead } from './leadFields.ts';
import { leadsDelivered, timeToFirstLeadSeconds } from '../metrics.ts';
import { afterCommit, appendFeedEvent } from './searchFeed.ts';
import { progressOf, statsOf, type SearchRow, type Trx } from './searchRecord.ts';
import { businessKeysOfLead } from './businessKeys.ts';
import { claimBusiness, isOwned, lockOwnership } from './ownedBusinesses.ts';
import { suppressionsFor } from './suppressions.ts';

/**
 * Stores the engine's leads for a running search (row locked by the caller), in order, each business
 * once, never more than the quantity held for it, and announces the new ones on the feed. Opted-out
 * contacts are left out, and a lead left without an email and a phone is no lead (neither stored nor
 * charged); a business the user already owns (ownership window, by any of its keys) is skipped, or with
 * include_owned delivered marked `owned` (free); a new one is claimed for the user in this transaction. Returns
 * the search as it now stands. Leads for a search that has finished are ignored: they were not paid for.
 */
export async function takeLeads(trx: Trx, search: SearchRow, incoming: IncomingLead[], ownershipWindowDays: number): Promise<SearchRow> {
  if (search.status !== 'running') return search;
  const accepted: Lead[] = [];
  let position = search.leads_count;
  let owned = 0;
  let skipped = 0;
  let firstLeadStoredAt: Date | undefined;
  const cleaned = incoming.map((raw) => ({ key: leadKeyOf(raw), lead: toStoredLead(raw), raw }));
  const suppressions = await suppressionsFor(trx, cleaned.map((c) => c.lead));
  // A monitor's run delivers only businesses the user never received, whatever the window.
  const ownership = search.monitor_id ? { on: true, windowDays: null } : { on: ownershipWindowDays > 0, windowDays: ownershipWindowDays };
  if (ownership.on) await lockOwnership(trx, search.user_id);
  for (const { key, lead: scraped, raw } of cleaned) {
    if (position >= search.quantity) break;
    if (!scraped.company && !scraped.name) continue;
    // An opted-out site never appears in a new search; an opted-out email or phone is left out.
    if (suppressions.siteSuppressed(scraped)) continue;
    const lead = suppressions.blank(scraped);
    if (!hasContact(lead)) continue;
    const keys = businessKeysOfLead({
      key, merged_keys: raw.merged_keys?.map((merged) => cleanText(merged, 500)), website: lead.website, phone: lead.phone, company: lead.company, lat: raw.lat, lon: raw.lon,
    });
    const isOwnedLead = ownership.on && await isOwned(trx, search.user_id, search.id, keys, ownership.windowDays);
    if (isOwnedLead && !search.include_owned) {
      skipped++;
      continue;
    }
    if (isOwnedLead) lead.owned = true;
    const inserted = await trx('leads')
      .insert({
        search_id: search.id,
        position: position + 1,
        lead_key: key,
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
        people: lead.people ? JSON.stringify(lead.people) : null,
        source: lead.source ?? null,
        place_id: lead.place_id ?? null,
        ...verdictColumns(lead),
        owned: isOwnedLead,
        removed: lead.removed ? JSON.stringify(lead.removed) : null,
      })
      .onConflict()
      .ignore()
      .returning(['position', 'created_at']);
    if (!inserted.length) continue;
    if (isOwnedLead) owned++;
    // Claimed even with the window off: a monitor's run must know every business the user ever received.
    else await claimBusiness(trx, search.user_id, search.id, keys, ownershipWindowDays);
    // Position 1 is the primary key's: only one insert ever stores it, however often results are replayed.
    if (inserted[0].position === 1) firstLeadStoredAt = new Date(inserted[0].created_at);
    position++;
    accepted.push(lead);
  }
  if (!accepted.length && !skipped) return search;

  const count = (test: (lead: Lead) => boolean) => accepted.filter(test).length;
  const [updated]: SearchRow[] = await trx('lead_searches').where({ id: search.id }).update({
    leads_count: position,
    owned_count: search.owned_count + owned,
    skipped_owned: search.skipped_owned + skipped,
    with_email: search.with_email + count((l) => l.email !== ''),
    with_phone: search.with_phone + count((l) => l.phone !== ''),
    with_website: search.with_website + count((l) => l.website !== ''),
  }).returning('*');
  // Only skipped ones: the stats move (skipped_owned), so the feed says so.
  if (!accepted.length) {
    await appendFeedEvent(trx, search.id, 'progress', progressOf(updated));
    return updated;
  }
  await appendFeedEvent(trx, search.id, 'leads', { leads: accepted, leads_count: position, stats: statsOf(updated) });
  afterCommit(trx, () => {
    leadsDelivered.inc(accepted.length);
    // Both times are the database's: no skew with this pod's clock.
    if (firstLeadStoredAt) timeToFirstLeadSeconds.observe((firstLeadStoredAt.getTime() - new Date(search.created_at).getTime()) / 1000);
  });
  return updated;
}

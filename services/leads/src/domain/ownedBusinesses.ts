import { MAX_KNOWN_BUSINESS_KEYS } from '@leadforge/contracts';
import { matchesNear, nearPointOf } from '@leadforge/contracts/businessKeys.ts';
import { lockUntilCommit } from '@leadforge/kit/db';
import type { DbOrTrx, Trx } from './searchRecord.ts';

/** The engine is never asked for more than this many leads for one search. */
const MAX_ENGINE_QUANTITY = 1000;

const cutoff = (db: DbOrTrx, windowDays: number) => db.raw("now() - (? * interval '1 day')", [windowDays]);

/**
 * Serialises the ownership checks of one user's searches for the rest of the transaction, so that
 * "is it owned?" and "claim it" are one step: two searches of the same area cannot both take a
 * business as new. Taken after the search row's lock, and only by lead intake: no lock cycle.
 */
export async function lockOwnership(trx: Trx, userId: string): Promise<void> {
  await lockUntilCommit(trx, `owned-businesses:${userId}`);
}

/**
 * True when another search gave the user a business with one of these keys within the window, or
 * ever (`windowDays` null: a monitor's run): the same place, site or phone, or the same name within
 * 100 m (its `near:` rows found by name, then compared by distance). The caller holds lockOwnership.
 */
export async function isOwned(trx: Trx, userId: string, searchId: string, keys: string[], windowDays: number | null): Promise<boolean> {
  const points = keys.flatMap((key) => nearPointOf(key) ?? []);
  const exact = keys.filter((key) => !nearPointOf(key));
  let query = trx('owned_businesses')
    .where({ user_id: userId })
    .andWhere((q) => {
      q.whereIn('business_key', exact);
      if (points.length) q.orWhereIn('near_name', points.map((point) => point.name));
    })
    .whereNot({ search_id: searchId });
  if (windowDays !== null) query = query.andWhere('acquired_at', '>', cutoff(trx, windowDays));
  const rows: { business_key: string }[] = await query.select('business_key');
  return rows.some((row) => {
    const known = nearPointOf(row.business_key);
    return known ? points.some((point) => matchesNear(known, point)) : exact.includes(row.business_key);
  });
}

/** Records the business as the user's from this search (caller holds lockOwnership); a claim past the window is renewed. */
export async function claimBusiness(trx: Trx, userId: string, searchId: string, keys: string[], windowDays: number): Promise<void> {
  await trx('owned_businesses')
    .insert(keys.map((business_key) => ({ user_id: userId, business_key, search_id: searchId, near_name: nearPointOf(business_key)?.name ?? null })))
    .onConflict(['user_id', 'business_key'])
    .merge({ search_id: trx.raw('excluded.search_id'), acquired_at: trx.fn.now() })
    .where('owned_businesses.acquired_at', '<=', cutoff(trx, windowDays));
}

/** What the engine is told of the user's businesses for a search, and how many it must ask for. */
export interface EngineAsk {
  quantity: number;
  /** Lead intake's keys of the businesses the engine should neither crawl nor count (absent: none). */
  knownBusinessKeys?: string[];
}

/**
 * What to ask the engine for so that skipping owned businesses still fills the quantity. A monitor's
 * run (`windowDays` null: owned ever) gives the engine the keys the user owns from searches of the
 * same location (the businesses most likely to come back; the newest MAX_KNOWN_BUSINESS_KEYS), which
 * it skips unfetched and uncounted, and asks for the quantity plus one per key left out (intake still
 * skips them). A search skips owned ones at intake instead (owned within the window), so that the user
 * is told how many and can include them free: it asks for the quantity plus the leads the user got
 * from earlier searches of the location within the window. Owned ones are included on request.
 */
export async function engineAskFor(db: DbOrTrx, userId: string, location: string, quantity: number, includeOwned: boolean, windowDays: number | null): Promise<EngineAsk> {
  if (includeOwned || windowDays === 0) return { quantity };
  if (windowDays !== null) {
    const [{ received }] = await db('leads')
      .join('lead_searches', 'lead_searches.id', 'leads.search_id')
      .where('lead_searches.user_id', userId)
      .andWhereRaw('lower(lead_searches.location) = lower(?)', [location.trim()])
      .andWhere('leads.created_at', '>', cutoff(db, windowDays))
      .count({ received: '*' });
    return { quantity: Math.min(MAX_ENGINE_QUANTITY, quantity + Number(received)) };
  }
  let owned = db('owned_businesses')
    .join('lead_searches', 'lead_searches.id', 'owned_businesses.search_id')
    .where('owned_businesses.user_id', userId)
    .andWhereRaw('lower(lead_searches.location) = lower(?)', [location.trim()]);
  if (windowDays !== null) owned = owned.andWhere('owned_businesses.acquired_at', '>', cutoff(db, windowDays));
  const rows: { business_key: string; total: string | number }[] = await owned
    .select('owned_businesses.business_key', db.raw('count(*) OVER () AS total'))
    .orderBy('owned_businesses.acquired_at', 'desc')
    .limit(MAX_KNOWN_BUSINESS_KEYS);
  const leftOut = rows.length ? Number(rows[0].total) - rows.length : 0;
  return {
    quantity: Math.min(MAX_ENGINE_QUANTITY, quantity + leftOut),
    ...(rows.length ? { knownBusinessKeys: rows.map((row) => row.business_key) } : {}),
  };
}

import { TOPICS } from '@leadforge/contracts';
import { forgetPublishedEvents, type Subscription } from '@leadforge/kit/events';
import { markAccountErased } from '../search/erasedAccounts.ts';
import { geocodeKeyOf } from '../places/nominatimGeocoder.ts';
import type { ScraperRuntime } from '../runtime.ts';

/**
 * `account.deleted` -> the deleted account's jobs forget what was searched for (industry and place);
 * their figures stay for the proxy statistics. A job still open is cancelled: a worker checks for
 * that before it starts and at every heartbeat, so it never searches for the blanked query. A search
 * requested before the deletion that arrives after it is never stored (`recordSearch`). The stored
 * geocodes of the places it searched go too (a replica's in-memory copy lapses with its cache hours),
 * and so do the published copies of its results' events, which name the matched place.
 */
export function startAccountErasureConsumer(rt: ScraperRuntime): Promise<Subscription> {
  const { ctx } = rt;
  return ctx.consume('scraper.account-erasure', [TOPICS.authUser], {
    'account.deleted': async (data, _envelope, trx) => {
      await markAccountErased(trx, data.user_id);
      await trx('scraper_jobs').where({ user_id: data.user_id }).whereNot({ state: 'finished' }).update({ cancel_requested: true });
      const searched = await trx('scraper_jobs').where({ user_id: data.user_id }).whereNot({ location: '' }).distinct('location');
      const keys = [...new Set(searched.map((row: { location: string }) => geocodeKeyOf(row.location)))];
      if (keys.length) await trx('scraper_geocodes').whereIn('location_key', keys).del();
      // The published results' copies name the matched place (its full name) until the outbox prunes them.
      await forgetPublishedEvents(trx, await trx('scraper_jobs').where({ user_id: data.user_id }).pluck('search_id'));
      await trx('scraper_jobs').where({ user_id: data.user_id }).update({ industry: '', location: '', error: null, updated_at: trx.fn.now() });
    },
  });
}

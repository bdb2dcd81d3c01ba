import type { Knex } from 'knex';

export type DailyCounter = 'signups' | 'purchases' | 'revenue' | 'refunds' | 'refunded' | 'test_purchases' | 'test_amount' | 'test_refunded' | 'scrapes' | 'leads' | 'credits_used';

/**
 * When the reported thing happened, as ISO: the event's own timestamp field (so a replay files it
 * under the same day), or the envelope's time when a producer sent something unreadable.
 */
export function eventTime(timestamp: string, envelope: { occurred_at: string }): string {
  const at = new Date(timestamp);
  return (Number.isNaN(at.getTime()) ? new Date(envelope.occurred_at) : at).toISOString();
}

export function utcDay(isoTime: string): string {
  return isoTime.slice(0, 10);
}

/** Adds to one day's roll-up; the row is taken last in every handler so handlers never wait in a cycle. */
export async function addToDay(trx: Knex.Transaction, day: string, amounts: Partial<Record<DailyCounter, number>>): Promise<void> {
  const columns = Object.keys(amounts) as DailyCounter[];
  const merge = Object.fromEntries(columns.map((c) => [c, trx.raw('?? + excluded.??', [`rm_daily.${c}`, c])]));
  await trx('rm_daily').insert({ day, ...amounts }).onConflict('day').merge(merge);
}

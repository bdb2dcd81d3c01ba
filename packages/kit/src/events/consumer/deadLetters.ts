import { Compile } from 'typebox/compile';
import { EventEnvelope } from '@leadforge/contracts';
import type { Db } from '../../db/database.ts';
import { wakeOutboxRelays } from '../outbox/outbox.ts';

const envelopeValidator = Compile(EventEnvelope);

export interface DeadLetter {
  id: number;
  consumer: string;
  topic: string;
  eventId: string;
  type: string;
  error: string;
  attempts: number;
  parkedAt: Date;
}

export interface DeadLetterFilter {
  /** Only this consumer group's. */
  group?: string;
  /** Only these events. */
  eventIds?: string[];
}

function selected(db: Db, filter: DeadLetterFilter) {
  const query = db('kit_dead_letters');
  if (filter.group) query.where({ consumer: filter.group });
  if (filter.eventIds?.length) query.whereIn('event_id', filter.eventIds);
  return query;
}

export async function listDeadLetters(db: Db, filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
  const rows = await selected(db, filter).select('id', 'consumer', 'topic', 'event_id', 'envelope', 'error', 'attempts', 'parked_at').orderBy('id');
  return rows.map((row) => ({
    id: Number(row.id),
    consumer: row.consumer,
    topic: row.topic,
    eventId: row.event_id,
    type: typeof row.envelope?.type === 'string' ? row.envelope.type : 'unknown',
    error: row.error,
    attempts: row.attempts,
    parkedAt: row.parked_at,
  }));
}

export interface ReplayResult {
  /** Events put back into the outbox, to reach their topic again. */
  replayed: string[];
  /** Dead letters that hold no event envelope (not JSON, malformed): left parked, to be looked at. */
  kept: string[];
}

/**
 * Puts parked events back on their topic through this service's outbox, and removes them from the
 * dead letters, in one transaction: the relay publishes them like any event. Groups that handled an
 * event already skip it (kit_handled_events); the group that parked it, never having recorded it,
 * handles it again, with whatever fix was deployed since.
 */
export async function replayDeadLetters(db: Db, filter: DeadLetterFilter = {}): Promise<ReplayResult> {
  const result = await db.transaction(async (trx) => {
    const rows = await selected(trx as unknown as Db, filter).select('id', 'topic', 'event_id', 'envelope').orderBy('id').forUpdate();
    const result: ReplayResult = { replayed: [], kept: [] };
    const replayedRows: number[] = [];
    for (const row of rows) {
      if (!envelopeValidator.Check(row.envelope)) {
        result.kept.push(row.event_id);
        continue;
      }
      // Several groups may have parked the same event: it goes out once.
      if (!result.replayed.includes(row.event_id)) {
        await trx('kit_outbox')
          .insert({ event_id: row.event_id, topic: row.topic, key: row.envelope.key, envelope: JSON.stringify(row.envelope) })
          // This service's own event, published before: publish it again.
          .onConflict('event_id').merge({ published_at: null });
        result.replayed.push(row.event_id);
      }
      replayedRows.push(row.id);
    }
    if (replayedRows.length) await trx('kit_dead_letters').whereIn('id', replayedRows).delete();
    return result;
  });
  if (result.replayed.length) wakeOutboxRelays();
  return result;
}

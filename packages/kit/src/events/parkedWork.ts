import type { Db } from '../db/database.ts';
import { replayParkedRows, wakeQueue, type QueueDeclaration } from '../work/leasedQueue.ts';
import { listDeadLetters, replayDeadLetters } from './consumer/deadLetters.ts';
import { replayParkedOutbox } from './outbox/outbox.ts';

/** Where work is parked in a service's database: one of its queues, its outbox, or its consumers' dead letters. */
export type ParkedSource = { kind: 'queue'; queue: string } | { kind: 'outbox' } | { kind: 'dead_letters' };

/** One piece of work given up on and kept, whatever held it. */
export interface ParkedItem {
  source: ParkedSource;
  /** Its key where it is parked: a queue row's key, an outbox seq, a dead letter's event id. */
  key: string;
  /** What it is: an event type (outbox, dead letters; a dead letter's consumer group too), or the queue's name. */
  what: string;
  error: string | null;
  attempts: number | null;
  parkedAt: Date | null;
  /** Whether a replay can make it run again (a queue whose parked rows are final cannot). */
  replayable: boolean;
}

/** The parked work of one service: its queues (as declared) first, then its outbox, then its dead letters. */
export async function listParkedWork(db: Db, queues: readonly QueueDeclaration[]): Promise<ParkedItem[]> {
  const items: ParkedItem[] = [];
  for (const { queue, table, unpark } of queues) {
    // A never-parking queue declares `parked` as false: nothing to read.
    if (table.parked.trim() === 'false') continue;
    const key = table.key ?? 'id';
    const due = table.dueColumn ?? 'next_attempt_at';
    const rows = await db(table.table).whereRaw(table.parked)
      .select({ key }, 'attempts', { parked_at: due }, ...(table.lastErrorColumn ? [{ error: table.lastErrorColumn }] : []))
      .orderBy(key);
    for (const row of rows) {
      items.push({
        source: { kind: 'queue', queue }, key: String(row.key), what: queue, error: row.error ?? null,
        attempts: row.attempts, parkedAt: row.parked_at ?? null, replayable: Boolean(unpark),
      });
    }
  }
  const outbox = await db('kit_outbox').whereNotNull('parked_at').whereNull('published_at')
    .select('seq', 'envelope', 'last_error', 'parked_at').orderBy('seq');
  for (const row of outbox) {
    items.push({
      source: { kind: 'outbox' }, key: String(row.seq), what: typeof row.envelope?.type === 'string' ? row.envelope.type : 'unknown',
      error: row.last_error ?? null, attempts: null, parkedAt: row.parked_at, replayable: true,
    });
  }
  for (const letter of await listDeadLetters(db)) {
    items.push({
      source: { kind: 'dead_letters' }, key: letter.eventId, what: `${letter.type} (${letter.consumer})`,
      error: letter.error, attempts: letter.attempts, parkedAt: letter.parkedAt, replayable: true,
    });
  }
  return items;
}

/** What one replay did, by where the work was parked. */
export interface ParkedReplay {
  source: ParkedSource;
  /** How many pieces of work run again. */
  replayed: number;
  /** Keys left parked (a dead letter that holds no event envelope). */
  kept: string[];
}

/**
 * The one replay over a service's parked work: a queue's rows are made due again (and its workers in
 * this process woken), outbox rows publishable again, dead letters put back on their topics. `keys`
 * picks pieces of that source only; none: all of it. A queue whose parked rows are final is refused.
 */
export async function replayParkedWork(db: Db, service: string, queues: readonly QueueDeclaration[], source: ParkedSource, keys?: string[]): Promise<ParkedReplay> {
  // An empty selection picks nothing (the dead letters' filter would read it as all).
  if (keys && !keys.length) return { source, replayed: 0, kept: [] };
  if (source.kind === 'outbox') {
    return { source, replayed: await replayParkedOutbox(db, keys?.map(Number)), kept: [] };
  }
  if (source.kind === 'dead_letters') {
    const { replayed, kept } = await replayDeadLetters(db, { eventIds: keys });
    return { source, replayed: replayed.length, kept };
  }
  const declaration = queues.find((candidate) => candidate.queue === source.queue);
  if (!declaration) throw new Error(`${service} has no queue named ${source.queue}`);
  const replayed = await replayParkedRows(db, declaration, keys);
  if (replayed) wakeQueue(service, declaration.queue);
  return { source, replayed, kept: [] };
}

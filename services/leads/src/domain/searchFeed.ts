import { EventEmitter } from 'node:events';
import type { SearchFeedData, SearchFeedEventType } from '@leadforge/contracts';
import type { DbOrTrx, Trx } from './searchRecord.ts';
import { suppressionsFor } from './suppressions.ts';

export interface FeedEvent<T extends SearchFeedEventType = SearchFeedEventType> {
  seq: number;
  type: T;
  data: SearchFeedData[T];
}

/**
 * Appends one event to a search's feed. The caller holds the search row's lock (lockSearch), so
 * sequence numbers are gap-free and in commit order.
 */
export async function appendFeedEvent<T extends SearchFeedEventType>(trx: Trx, searchId: string, type: T, data: SearchFeedData[T]): Promise<number> {
  const [{ last_seq: seq }] = await trx('lead_searches').where({ id: searchId }).increment('last_seq', 1).returning('last_seq');
  await trx('search_feed').insert({ search_id: searchId, seq, type, data: JSON.stringify(data) });
  if (type === 'finished') await trx('lead_searches').where({ id: searchId }).update({ finished_seq: seq });
  return seq;
}

export async function feedAfter(db: DbOrTrx, searchId: string, afterSeq: number, limit = 200): Promise<FeedEvent[]> {
  const rows: { seq: number; type: SearchFeedEventType; data: unknown }[] = await db('search_feed')
    .where({ search_id: searchId })
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .select('seq', 'type', 'data');
  const events: FeedEvent[] = rows.map((r) => ({ seq: r.seq, type: r.type, data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as never }));
  // A replayed feed shows what the search's view shows: contacts opted out since are blanked.
  const leadEvents = events.filter((e): e is FeedEvent<'leads'> => e.type === 'leads');
  if (leadEvents.length) {
    const suppressions = await suppressionsFor(db, leadEvents.flatMap((e) => e.data.leads));
    if (!suppressions.empty) for (const event of leadEvents) event.data = { ...event.data, leads: event.data.leads.map((lead) => suppressions.blank(lead)) };
  }
  return events;
}

/** A reader's interest in one search: `wait` returns at once if the feed changed since the last wait. */
export interface FeedWatch {
  wait(timeoutMs: number, abort?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Tells live readers of a search (SSE streams, waiting generate-leads calls) in this process that its
 * feed grew. Readers re-read the database, which stays the one source of truth; another replica's
 * writes reach them at their next poll.
 */
export class FeedSignals {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  /** Call once the transaction that appended has committed. */
  changed(searchId: string): void {
    this.emitter.emit(searchId);
  }

  /** Start watching before the first read, so a change between a read and a wait is never missed. */
  watch(searchId: string): FeedWatch {
    let dirty = false;
    let wake: (() => void) | undefined;
    const listener = () => {
      dirty = true;
      wake?.();
    };
    this.emitter.on(searchId, listener);
    return {
      wait: (timeoutMs, abort) => new Promise<void>((resolve) => {
        if (dirty || abort?.aborted) {
          dirty = false;
          resolve();
          return;
        }
        const done = () => {
          clearTimeout(timer);
          abort?.removeEventListener('abort', done);
          wake = undefined;
          dirty = false;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        abort?.addEventListener('abort', done);
        wake = done;
      }),
      close: () => {
        this.emitter.off(searchId, listener);
        wake?.();
      },
    };
  }
}

/** Runs `fn` once the transaction has committed (never when it rolls back). */
export function afterCommit(trx: Trx, fn: () => void): void {
  let outermost = trx;
  while (outermost.parentTransaction) outermost = outermost.parentTransaction;
  outermost.executionPromise.then(fn, () => undefined);
}

import type { Db } from '@leadforge/kit/db';
import type { FeedSignals } from './searchFeed.ts';
import { findSearch, type SearchRow } from './searchRecord.ts';

/** How often a waiter re-reads the search even without a signal (another replica may be writing). */
const POLL_MS = 1000;

/**
 * Waits until the search has ended and its feed says so (credits settled, or billing given up on for
 * now). Resolves undefined if `abort` fires first; the search goes on regardless.
 */
export async function waitForEnd(db: Db, signals: FeedSignals, searchId: string, abort: AbortSignal): Promise<SearchRow | undefined> {
  const watch = signals.watch(searchId);
  try {
    while (!abort.aborted) {
      const search = await findSearch(db, searchId);
      if (!search || search.finished_seq !== null) return search;
      await watch.wait(POLL_MS, abort);
    }
    return undefined;
  } finally {
    watch.close();
  }
}

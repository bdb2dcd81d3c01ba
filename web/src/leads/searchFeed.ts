import type { SearchFeedData, SearchFeedEventType } from '@leadforge/contracts';
import { authHeader } from './leadsApi';
import { takeSseEvents } from './sseEvents';

export type FeedHandler = <T extends SearchFeedEventType>(type: T, data: SearchFeedData[T]) => void;

const RETRY_MS = [500, 1000, 2000, 4000, 8000];

/**
 * Follows a search's live feed (Server-Sent Events over fetch, so the session token goes in a header)
 * until its `finished` event. A dropped connection is picked up again where it stopped (Last-Event-ID),
 * so no lead is shown twice or missed. Resolves after `finished`; rejects with the last error if the
 * feed cannot be reached again, or when `signal` aborts.
 */
export async function followSearchFeed(searchId: string, onEvent: FeedHandler, signal: AbortSignal): Promise<void> {
  let lastEventId = '';
  let failures = 0;
  for (;;) {
    try {
      const res = await fetch(`/api/lead-searches/${encodeURIComponent(searchId)}/events`, {
        headers: { Accept: 'text/event-stream', ...authHeader(), ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
        signal,
        cache: 'no-store',
      });
      if (!res.ok || !res.body) throw new FeedError(res.status, await detailOf(res));
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const { events, rest } = takeSseEvents(buffer + value);
        buffer = rest;
        for (const event of events) {
          if (event.id) lastEventId = event.id;
          failures = 0;
          onEvent(event.event as SearchFeedEventType, JSON.parse(event.data));
          if (event.event === 'finished') {
            void reader.cancel();
            return;
          }
        }
      }
    } catch (err) {
      if (signal.aborted) throw err;
      // 4xx will not get better by asking again.
      if (err instanceof FeedError && err.status >= 400 && err.status < 500) throw err;
      if (failures >= RETRY_MS.length) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]));
  }
}

export class FeedError extends Error {
  constructor(readonly status: number, readonly detail: string) {
    super(detail);
  }
}

async function detailOf(res: Response): Promise<string> {
  try {
    const body = await res.json();
    if (typeof body?.detail === 'string') return body.detail;
  } catch { /* not JSON */ }
  return `The live feed answered ${res.status}`;
}

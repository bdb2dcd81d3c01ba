import type { App } from '@leadforge/kit/service';
import { badRequest, handle, notFound, principalOf } from '@leadforge/kit/http';
import { LEAD_SEARCH_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { feedAfter } from '../domain/searchFeed.ts';
import { findOwnSearch, findSearch } from '../domain/searchRecord.ts';

/** Re-read the feed this often without a signal (writes from another replica). */
const POLL_MS = 1000;
/** A comment this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/**
 * GET /api/lead-searches/:id/events — the search's feed as Server-Sent Events, read from the
 * database (so any replica can serve it and nothing is missed) and woken by in-process signals (so it
 * is live). Resumes after Last-Event-ID; ends after `finished`.
 */
export async function searchFeedRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  handle(app, LEAD_SEARCH_ROUTES.feed, async (request, reply) => {
    const search = await findOwnSearch(db, principalOf(request).id, request.params.id);
    if (!search) throw notFound('Search not found');
    const header = request.headers['last-event-id'];
    const resumeFrom = header === undefined ? request.query.last_event_id ?? 0 : Number(header);
    if (!Number.isInteger(resumeFrom) || resumeFrom < 0) throw badRequest('Last-Event-ID must be a whole number');

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': String(request.id),
    });
    res.write('retry: 2000\n\n');

    const gone = new AbortController();
    const stop = () => gone.abort();
    res.on('close', stop);
    rt.closing.signal.addEventListener('abort', stop);
    const watch = rt.signals.watch(search.id);
    let last = resumeFrom;
    let lastWrite = Date.now();
    try {
      while (!gone.signal.aborted) {
        const events = await feedAfter(db, search.id, last);
        for (const event of events) {
          res.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
          last = event.seq;
          lastWrite = Date.now();
        }
        if (events.some((e) => e.type === 'finished')) break;
        if (!events.length) {
          // Already past the end (a reconnect after `finished`): nothing more will come.
          const current = await findSearch(db, search.id);
          if (current?.finished_seq !== null && current?.finished_seq !== undefined && last >= current.finished_seq) break;
          if (Date.now() - lastWrite >= KEEPALIVE_MS) {
            res.write(': keep-alive\n\n');
            lastWrite = Date.now();
          }
          await watch.wait(POLL_MS, gone.signal);
        }
      }
    } catch (err) {
      request.log.warn({ err, searchId: search.id }, 'search feed stream failed');
    } finally {
      watch.close();
      res.off('close', stop);
      rt.closing.signal.removeEventListener('abort', stop);
      res.end();
    }
  });
}

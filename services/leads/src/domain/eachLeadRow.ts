import { leadsAt, leadsPage, type LeadRow } from './leadRows.ts';
import type { DbOrTrx } from './searchRecord.ts';

const EXPORT_PAGE = 500;

/**
 * Every lead of a search in delivery order, a page at a time: exports stay flat in memory at any
 * size. With `positions` (lead numbers from 1, ascending), only those leads.
 */
export async function* eachLeadRow(db: DbOrTrx, searchId: string, positions?: number[]): AsyncGenerator<LeadRow> {
  if (positions) {
    for (let start = 0; start < positions.length; start += EXPORT_PAGE) yield* await leadsAt(db, searchId, positions.slice(start, start + EXPORT_PAGE));
    return;
  }
  let after = 0;
  for (;;) {
    const rows = await leadsPage(db, searchId, after, EXPORT_PAGE);
    yield* rows;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1].position;
    // Embedded PGlite runs on this thread: let sockets (this download's and every other request's) move between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

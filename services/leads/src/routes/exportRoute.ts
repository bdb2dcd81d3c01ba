import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { App } from '@leadforge/kit';
import { notFound, principalOf } from '@leadforge/kit';
import { LEAD_VERDICT_COLUMNS, LEADS_CSV_COLUMNS, LeadSearchId, leadsExportFileName } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit';
import type { LeadsRuntime } from '../leadsRuntime.ts';
import { csvRecord } from '../domain/csvCells.ts';
import { leadsPage } from '../domain/leadRows.ts';
import { findOwnSearch } from '../domain/searchRecord.ts';

const PAGE = 500;

/** The search's leads, a page at a time: memory stays flat however many there are. */
async function* csvRecords(db: Db, searchId: string): AsyncGenerator<string[]> {
  let after = 0;
  for (;;) {
    const rows = await leadsPage(db, searchId, after, PAGE);
    for (const row of rows) yield csvRecord(row);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].position;
    // Embedded PGlite runs on this thread: let sockets (this download's and every other request's) move between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * GET /api/lead-searches/:id/export.csv — streamed, UTF-8 with a byte-order mark and CRLF (what
 * Excel opens correctly), formula-looking cells neutralised. Exporting again costs nothing.
 */
export async function exportRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  app.get('/api/lead-searches/:id/export.csv', {
    schema: { params: LeadSearchId },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const search = await findOwnSearch(db, principalOf(request).id, (request.params as { id: string }).id);
    if (!search) throw notFound('Search not found');
    const fileName = leadsExportFileName(search.industry, search.location, search.created_at);
    // pipeline, not pipe: a database error mid-export ends the download instead of hanging it.
    const csv = pipeline(Readable.from(csvRecords(db, search.id)), stringify({
      bom: true,
      header: true,
      columns: [...LEADS_CSV_COLUMNS, ...LEAD_VERDICT_COLUMNS.map(({ header }) => header)],
      record_delimiter: 'windows',
    }), (err) => {
      if (err) request.log.warn({ err, searchId: search.id }, 'CSV export ended early');
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(csv);
  });
}

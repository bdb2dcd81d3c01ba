import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { App } from '@leadforge/kit/service';
import { notFound, principalOf } from '@leadforge/kit/http';
import { LEADS_EXPORT_COLUMNS, exportedLeadNumbers, LeadSearchId, LeadsExportQuery, leadsExportFileName } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import type { LeadsRuntime } from '../runtime.ts';
import { csvRecord } from '../domain/csvCells.ts';
import { eachLeadRow } from '../domain/eachLeadRow.ts';
import { findOwnSearch } from '../domain/searchRecord.ts';

/** The search's leads as CSV records, a page at a time. */
async function* csvRecords(db: Db, searchId: string, positions: number[] | undefined): AsyncGenerator<string[]> {
  for await (const row of eachLeadRow(db, searchId, positions)) yield csvRecord(row);
}

/**
 * GET /api/lead-searches/:id/export.csv — streamed, UTF-8 with a byte-order mark and CRLF (what
 * Excel opens correctly), formula-looking cells neutralised. Exporting again costs nothing.
 */
export async function exportRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  app.get('/api/lead-searches/:id/export.csv', {
    schema: { params: LeadSearchId, querystring: LeadsExportQuery },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const search = await findOwnSearch(db, principalOf(request).id, (request.params as { id: string }).id);
    if (!search) throw notFound('Search not found');
    const fileName = leadsExportFileName(search.industry, search.location, search.created_at);
    // pipeline, not pipe: a database error mid-export ends the download instead of hanging it.
    const csv = pipeline(Readable.from(csvRecords(db, search.id, exportedLeadNumbers((request.query as LeadsExportQuery).leads))), stringify({
      bom: true,
      header: true,
      columns: LEADS_EXPORT_COLUMNS.map(({ header }) => header),
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

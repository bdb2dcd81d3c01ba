import { PassThrough, Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { App } from '@leadforge/kit/service';
import { handle, notFound, principalOf } from '@leadforge/kit/http';
import { LEAD_EXPORT_ROUTES, LEADS_EXPORT_COLUMNS, exportFilter, exportedLeadNumbers, leadsExportFileName, type LeadsExportFormat } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import type { LeadsRuntime } from '../runtime.ts';
import { csvRecord } from '../domain/csvCells.ts';
import { eachLeadRow } from '../domain/eachLeadRow.ts';
import { exportedLeads } from '../domain/exportedLeads.ts';
import { toLead } from '../domain/leadRows.ts';
import { writeLeadsWorkbook } from '../domain/leadsWorkbook.ts';
import { findOwnSearch, statsOf, toSummary, type SearchRow } from '../domain/searchRecord.ts';

/** One download of a search's leads: what it is sent as, and its body, streamed. */
interface ExportFormat {
  format: LeadsExportFormat;
  /** Named in the log line of a download that ended early. */
  name: string;
  type: string;
  /** `positions`: the leads asked for (all when undefined); `failed`: the stream broke off. */
  body(db: Db, search: SearchRow, positions: number[] | undefined, failed: (err: Error) => void): NodeJS.ReadableStream;
}

/** The search's leads as CSV records, a page at a time. */
async function* csvRecords(db: Db, searchId: string, positions: number[] | undefined): AsyncGenerator<string[]> {
  for await (const row of eachLeadRow(db, searchId, positions)) yield csvRecord(row);
}

/** `{"search":{...},"leads":[...]}` written a lead at a time, so memory stays flat at any size. */
async function* jsonChunks(db: Db, search: SearchRow, positions: number[] | undefined): AsyncGenerator<string> {
  yield `{"search":${JSON.stringify({ ...toSummary(search), stats: statsOf(search), coverage: search.coverage ?? null })},"leads":[`;
  let first = true;
  for await (const row of eachLeadRow(db, search.id, positions)) {
    yield `${first ? '' : ','}${JSON.stringify(toLead(row))}`;
    first = false;
  }
  yield ']}';
}

const FORMATS: ExportFormat[] = [
  {
    // UTF-8 with a byte-order mark and CRLF (what Excel opens correctly), formula-looking cells neutralised.
    format: 'csv',
    name: 'CSV',
    type: 'text/csv; charset=utf-8',
    // pipeline, not pipe: a database error mid-export ends the download instead of hanging it.
    body: (db, search, positions, failed) => pipeline(Readable.from(csvRecords(db, search.id, positions)), stringify({
      bom: true,
      header: true,
      columns: LEADS_EXPORT_COLUMNS.map(({ header }) => header),
      record_delimiter: 'windows',
    }), (err) => { if (err) failed(err); }),
  },
  {
    // The search (`LeadsJsonExport`).
    format: 'json',
    name: 'JSON',
    type: 'application/json; charset=utf-8',
    body: (db, search, positions, failed) => pipeline(Readable.from(jsonChunks(db, search, positions)), new PassThrough(), (err) => { if (err) failed(err); }),
  },
  {
    format: 'xlsx',
    name: 'Excel',
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: (db, search, positions, failed) => {
      const out = new PassThrough();
      writeLeadsWorkbook(eachLeadRow(db, search.id, positions), out).catch((err) => {
        failed(err);
        out.destroy(err);
      });
      return out;
    },
  },
];

/**
 * GET /api/lead-searches/:id/export.{csv,json,xlsx}: the user's own search's leads (all, the selected
 * ones, or those the table's filter shows), streamed; free, as often as wanted.
 */
export async function exportRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  for (const { format, name, type, body } of FORMATS) {
    handle(app, LEAD_EXPORT_ROUTES[format], async (request, reply) => {
      const search = await findOwnSearch(db, principalOf(request).id, request.params.id);
      if (!search) throw notFound('Search not found');
      const { positions, part } = await exportedLeads(db, search.id, exportedLeadNumbers(request.query.leads), exportFilter(request.query));
      const failed = (err: Error) => request.log.warn({ err, searchId: search.id }, `${name} export ended early`);
      return reply
        .type(type)
        .header('content-disposition', `attachment; filename="${leadsExportFileName(search.industry, search.location, search.created_at, format, part)}"`)
        .header('cache-control', 'private, no-store')
        .send(body(db, search, positions, failed));
    });
  }
}

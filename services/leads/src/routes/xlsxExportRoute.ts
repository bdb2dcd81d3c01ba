import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { App } from '@leadforge/kit/service';
import { notFound, principalOf } from '@leadforge/kit/http';
import { LEADS_EXPORT_COLUMNS, exportedLeadNumbers, LeadSearchId, LeadsExportQuery, leadsExportFileName } from '@leadforge/contracts';
import { exportCells, type ExportableLead } from '../domain/csvCells.ts';
import type { LeadsRuntime } from '../runtime.ts';
import { eachLeadRow } from '../domain/eachLeadRow.ts';
import { findOwnSearch } from '../domain/searchRecord.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Writes the workbook into `out` a row at a time (exceljs' streaming writer). Every value is written
 * as a string cell, never a formula, so a scraped `=HYPERLINK(...)` is shown as text and nothing
 * needs the CSV's leading quote. A field an opt-out blanked says so.
 */
export async function writeLeadsWorkbook(leads: AsyncIterable<ExportableLead> | Iterable<ExportableLead>, out: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Leadforge';
  const sheet = workbook.addWorksheet('Leads', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = LEADS_EXPORT_COLUMNS.map(({ header, key, width }) => ({ header, key, width }));
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: LEADS_EXPORT_COLUMNS.length } };
  sheet.getRow(1).commit();
  for await (const lead of leads) {
    sheet.addRow(exportCells(lead)).commit();
  }
  sheet.commit();
  await workbook.commit();
}

/** GET /api/lead-searches/:id/export.xlsx — the leads as an Excel workbook, streamed; free, as often as wanted. */
export async function xlsxExportRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  app.get('/api/lead-searches/:id/export.xlsx', {
    schema: { params: LeadSearchId, querystring: LeadsExportQuery },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const search = await findOwnSearch(db, principalOf(request).id, (request.params as { id: string }).id);
    if (!search) throw notFound('Search not found');
    const fileName = leadsExportFileName(search.industry, search.location, search.created_at, 'xlsx');
    const out = new PassThrough();
    writeLeadsWorkbook(eachLeadRow(db, search.id, exportedLeadNumbers((request.query as LeadsExportQuery).leads)), out).catch((err) => {
      request.log.warn({ err, searchId: search.id }, 'Excel export ended early');
      out.destroy(err);
    });
    return reply
      .type(XLSX_TYPE)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(out);
  });
}

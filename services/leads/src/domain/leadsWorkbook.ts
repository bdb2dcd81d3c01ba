import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { LEADS_EXPORT_COLUMNS } from '@leadforge/contracts';
import { exportCells, type ExportableLead } from './csvCells.ts';

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

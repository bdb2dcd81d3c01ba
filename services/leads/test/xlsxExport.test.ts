import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { LEADS_EXPORT_COLUMNS } from '@leadforge/contracts';
import type { ExportableLead } from '../src/domain/csvCells.ts';
import { writeLeadsWorkbook } from '../src/domain/leadsWorkbook.ts';

const lead = (i: number, overrides: Partial<ExportableLead> = {}): ExportableLead => ({
  name: `Owner ${i}`, company: `Company ${i}`, email: `a${i}@example.com`, phone: '+15550100001',
  website: `https://c${i}.example/`, city: 'Springfield', address: null, country: null, ...overrides,
});

async function workbookOf(rows: ExportableLead[]): Promise<ExcelJS.Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await writeLeadsWorkbook(rows, out);
  await ended;
  return Buffer.concat(chunks) as unknown as ExcelJS.Buffer;
}

describe('Excel export', () => {
  it('has a bold frozen header row, column widths, and every lead in order', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await workbookOf([lead(1), lead(2, { address: '1 High St', country: 'GB', socials: [{ network: 'facebook', url: 'https://www.facebook.com/c2' }] })]));
    const sheet = workbook.getWorksheet('Leads')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(LEADS_EXPORT_COLUMNS.map((c) => c.header));
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.columns.map((c) => c.width)).toEqual(LEADS_EXPORT_COLUMNS.map((c) => c.width));
    expect(sheet.rowCount).toBe(3);
    expect((sheet.getRow(3).values as unknown[]).slice(1)).toEqual(['Owner 2', 'Company 2', 'a2@example.com', '+15550100001', 'https://c2.example/', 'Springfield', '1 High St', 'GB', 'https://www.facebook.com/c2']);
  });

  it('ends with the verdict and provenance columns, times in ISO 8601', async () => {
    const fetched = new Date('2026-11-24T10:00:00Z');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await workbookOf([lead(1, {
      email_deliverability: 'accept_all', email_type: 'personal', email_checked_at: fetched, email_smtp_code: 250, email_source: 'https://c1.example/contact', email_fetched_at: fetched,
      phone_type: 'mobile', phone_source: 'osm:node/1',
    })]));
    const sheet = workbook.getWorksheet('Leads')!;
    const cells = Object.fromEntries(LEADS_EXPORT_COLUMNS.map((column, i) => [column.header, sheet.getRow(2).getCell(i + 1).value]));
    expect(cells).toMatchObject({
      'Email deliverability': 'accept_all', 'Email type': 'personal', 'Email checked at': '2026-11-24T10:00:00.000Z', 'Email SMTP code': '250', 'Email source': 'https://c1.example/contact',
      'Email fetched at': '2026-11-24T10:00:00.000Z', 'Phone type': 'mobile', 'Phone source': 'osm:node/1',
    });
  });

  it('writes formula-looking values as text cells, never as formulas', async () => {
    const hostile = ['=HYPERLINK("https://evil.example","Click")', '+1+cmd|\' /C calc\'!A0', '@SUM(A1:A2)', '-2+3'];
    const bytes = await workbookOf([lead(1, { name: hostile[0], company: hostile[1], email: hostile[2], city: hostile[3] })]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    const row = workbook.getWorksheet('Leads')!.getRow(2);
    for (const [column, value] of [[1, hostile[0]], [2, hostile[1]], [3, hostile[2]], [6, hostile[3]]] as const) {
      expect(row.getCell(column).type).toBe(ExcelJS.ValueType.String);
      expect(row.getCell(column).value).toBe(value);
    }
    // No formula element anywhere in the sheet's XML.
    const JSZip = (await import('jszip')).default;
    const sheetXml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheetXml).not.toMatch(/<f[ >]/);
    expect(sheetXml).toContain('HYPERLINK');
  });
});

import { LEAD_VERDICT_COLUMNS, REMOVED_AT_OWNERS_REQUEST, type Lead } from '@leadforge/contracts';

// A spreadsheet treats a cell starting with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
// A phone number in international form ("+15551234567") starts with "+" but can hold no formula:
// it stays as it is, so every exported phone is not spoiled by a leading quote.
const INTERNATIONAL_PHONE = /^\+\d{6,15}$/;

/** Makes a scraped value inert in a spreadsheet: a leading formula character gets a `'` before it. */
export function neutraliseCell(value: string): string {
  if (!FORMULA_START.test(value) || INTERNATIONAL_PHONE.test(value)) return value;
  return `'${value}`;
}

type VerdictCells = { [K in (typeof LEAD_VERDICT_COLUMNS)[number]['key']]?: string | Date | null };

/** An export cell's text: times as ISO 8601 whichever way the driver read them, unset as empty. */
export function verdictCell(value: string | Date | null | undefined, key: string): string {
  if (value === null || value === undefined || value === '') return '';
  return key.endsWith('_fetched_at') ? new Date(value).toISOString() : String(value);
}

/** A field's export cell: the value, or why it is empty when an opt-out blanked it. */
export function fieldCell(lead: { removed?: Lead['removed'] | null }, key: string, value: string): string {
  return lead.removed?.includes(key as never) ? REMOVED_AT_OWNERS_REQUEST : value;
}

/**
 * One CSV record in the spec's column order (Name, Company, Email, Phone, Website, City), then the
 * verdict and provenance columns (LEAD_VERDICT_COLUMNS). The phone stays E.164; a field an opt-out
 * blanked says so.
 */
export function csvRecord(lead: Pick<Lead, 'name' | 'company' | 'email' | 'phone' | 'website' | 'city'> & { removed?: Lead['removed'] | null } & VerdictCells): string[] {
  const verdicts = LEAD_VERDICT_COLUMNS.map(({ key }) => verdictCell(lead[key], key));
  const fields = (['name', 'company', 'email', 'phone', 'website', 'city'] as const).map((key) => fieldCell(lead, key, lead[key]));
  return [...fields, ...verdicts].map(neutraliseCell);
}

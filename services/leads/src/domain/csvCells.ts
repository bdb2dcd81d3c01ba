import { LEAD_VERDICT_COLUMNS, LEADS_EXPORT_COLUMNS, REMOVED_AT_OWNERS_REQUEST, verdictWord, type Lead, type RemovedField } from '@leadforge/contracts';
import { peopleOf } from './leadRows.ts';

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

/** An export cell's text: times as ISO 8601 whichever way the driver read them, unset as empty. */
export function verdictCell(value: string | number | Date | null | undefined, key: string): string {
  if (value === null || value === undefined || value === '') return '';
  return key.endsWith('_fetched_at') || key.endsWith('_checked_at') ? new Date(value).toISOString() : String(value);
}

type ExportKey = (typeof LEADS_EXPORT_COLUMNS)[number]['key'];
type VerdictKey = (typeof LEAD_VERDICT_COLUMNS)[number]['key'];

/** What the CSV and Excel exports show of a lead (a stored row or a `Lead`). */
export type ExportableLead = Pick<Lead, 'name' | 'company' | 'email' | 'phone' | 'website' | 'city'> & {
  address?: string | null;
  country?: string | null;
  /** As the driver reads the jsonb column: parsed, or its text. */
  socials?: Lead['socials'] | string | null;
  /** As the driver reads the jsonb column, like socials. */
  people?: Lead['people'] | string | null;
  removed?: Lead['removed'] | null;
} & { [K in VerdictKey]?: string | number | Date | null };

const socialsCell = (socials: ExportableLead['socials']): string => {
  const list: NonNullable<Lead['socials']> = typeof socials === 'string' ? JSON.parse(socials) : socials ?? [];
  return list.map(({ url }) => url).join('; ');
};

/** The decision-maker's role (the first of the people, the one in Name): normalised, or as the page writes it. */
const roleCell = (lead: ExportableLead, key: 'role' | 'role_text'): string => {
  const [first] = peopleOf(lead);
  if (!first || first.name !== lead.name) return '';
  return key === 'role' ? verdictWord(first.role) : first.role_text ?? '';
};

function cellOf(lead: ExportableLead, key: ExportKey): string {
  if (lead.removed?.includes(key as RemovedField)) return REMOVED_AT_OWNERS_REQUEST;
  if (key === 'socials') return socialsCell(lead.socials);
  if (key === 'role' || key === 'role_text') return lead.removed?.includes('name') ? '' : roleCell(lead, key);
  return verdictCell(lead[key], key);
}

/**
 * A lead's cells in the export's column order (LEADS_EXPORT_COLUMNS: the spec's six, address,
 * country, social profiles, the decision-maker's role, then the verdicts and provenance). The phone stays E.164; a field an
 * opt-out blanked says so. Excel writes these as they are (string cells); CSV neutralises them.
 */
export function exportCells(lead: ExportableLead): string[] {
  return LEADS_EXPORT_COLUMNS.map(({ key }) => cellOf(lead, key));
}

/** One CSV record: the export's cells, formula-looking ones made inert. */
export function csvRecord(lead: ExportableLead): string[] {
  return exportCells(lead).map(neutraliseCell);
}

import { Type, type Static } from 'typebox';
import { LEAD_VERDICT_COLUMNS, Lead, LeadSearchSummary, LeadStats } from './leads.ts';

/** GET /api/lead-searches/:id/export.json — the search with its stats, then every lead in delivery order. */
export const LeadsJsonExport = Type.Object({
  search: Type.Object({ ...LeadSearchSummary.properties, stats: LeadStats }),
  leads: Type.Array(Lead),
});
export type LeadsJsonExport = Static<typeof LeadsJsonExport>;

/** The Excel export's columns: the CSV's six, what else a lead may carry, then its verdicts and provenance. */
export const LEADS_XLSX_COLUMNS = [
  { header: 'Name', key: 'name', width: 28 },
  { header: 'Company', key: 'company', width: 32 },
  { header: 'Email', key: 'email', width: 32 },
  { header: 'Phone', key: 'phone', width: 20 },
  { header: 'Website', key: 'website', width: 40 },
  { header: 'City', key: 'city', width: 20 },
  { header: 'Address', key: 'address', width: 40 },
  { header: 'Country', key: 'country', width: 16 },
  // The verdict and provenance columns every export appends (LEAD_VERDICT_COLUMNS).
  ...LEAD_VERDICT_COLUMNS.map(({ header, key }) => ({ header, key, width: key.endsWith('_source') ? 40 : 18 })),
] as const;

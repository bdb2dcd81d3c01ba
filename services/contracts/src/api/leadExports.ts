import { Type, type Static } from 'typebox';
import { Lead, LeadSearchSummary, LeadStats } from './leads.ts';

/** GET /api/lead-searches/:id/export.json — the search with its stats, then every lead in delivery order. */
export const LeadsJsonExport = Type.Object({
  search: Type.Object({ ...LeadSearchSummary.properties, stats: LeadStats }),
  leads: Type.Array(Lead),
});
export type LeadsJsonExport = Static<typeof LeadsJsonExport>;

/** The Excel export's columns: the CSV's six, then what else a lead may carry. */
export const LEADS_XLSX_COLUMNS = [
  { header: 'Name', key: 'name', width: 28 },
  { header: 'Company', key: 'company', width: 32 },
  { header: 'Email', key: 'email', width: 32 },
  { header: 'Phone', key: 'phone', width: 20 },
  { header: 'Website', key: 'website', width: 40 },
  { header: 'City', key: 'city', width: 20 },
  { header: 'Address', key: 'address', width: 40 },
  { header: 'Country', key: 'country', width: 16 },
] as const;

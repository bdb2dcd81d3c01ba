import { Type, type Static } from 'typebox';
import { LEAD_VERDICT_COLUMNS, Lead, LeadSearchId, LeadSearchSummary, LeadStats, type LeadsExportFormat } from './leads.ts';
import { declareRoutes } from '../routeDeclaration.ts';

/** GET /api/lead-searches/:id/export.json — the search with its stats, then every lead in delivery order. */
export const LeadsJsonExport = Type.Object({
  search: Type.Object({ ...LeadSearchSummary.properties, stats: LeadStats }),
  leads: Type.Array(Lead),
});
export type LeadsJsonExport = Static<typeof LeadsJsonExport>;

/**
 * Which leads an export holds: `leads=1,4,7` numbers them in delivery order (the order of a search's
 * `leads`, from 1), for exporting the rows a user selected; without it, every lead of the search.
 */
export const LeadsExportQuery = Type.Object({
  leads: Type.Optional(Type.String({
    pattern: '^[1-9][0-9]{0,5}(,[1-9][0-9]{0,5}){0,999}$',
    maxLength: 8000,
    errorMessage: 'leads must be lead numbers from 1, separated by commas (such as 1,4,7)',
  })),
}, { additionalProperties: false });
export type LeadsExportQuery = Static<typeof LeadsExportQuery>;

/** The lead numbers of an export's `leads=` (each once, in order); undefined for every lead. */
export const exportedLeadNumbers = (leads: string | undefined): number[] | undefined =>
  leads === undefined ? undefined : [...new Set(leads.split(',').map(Number))].sort((a, b) => a - b);

/**
 * The columns of the CSV and Excel exports, one list so they agree with each other and with JSON:
 * the spec's six, the address, country and social profiles a lead may carry, then its verdicts and provenance.
 */
export const LEADS_EXPORT_COLUMNS = [
  { header: 'Name', key: 'name', width: 28 },
  { header: 'Company', key: 'company', width: 32 },
  { header: 'Email', key: 'email', width: 32 },
  { header: 'Phone', key: 'phone', width: 20 },
  { header: 'Website', key: 'website', width: 40 },
  { header: 'City', key: 'city', width: 20 },
  { header: 'Address', key: 'address', width: 40 },
  { header: 'Country', key: 'country', width: 16 },
  // Every profile's address, "; " between them (each address names its network).
  { header: 'Social profiles', key: 'socials', width: 48 },
  // The verdict and provenance columns every export appends (LEAD_VERDICT_COLUMNS).
  ...LEAD_VERDICT_COLUMNS.map(({ header, key }) => ({ header, key, width: key.endsWith('_source') ? 40 : 18 })),
] as const;

const exportRoute = (format: LeadsExportFormat) => ({
  method: 'GET', path: `/api/lead-searches/:id/export.${format}`, access: 'user', streaming: true, apiKey: true,
  schema: { params: LeadSearchId, querystring: LeadsExportQuery },
} as const);

/** A search's leads as a file, streamed: no reply schema. */
export const LEAD_EXPORT_ROUTES = declareRoutes('leads', {
  csv: exportRoute('csv'),
  json: exportRoute('json'),
  xlsx: exportRoute('xlsx'),
});

import { Type, type Static } from 'typebox';
import { EMAIL_DELIVERABILITIES, LEAD_VERDICT_COLUMNS, Lead, LeadSearchId, LeadSearchSummary, LeadStats, type EmailDeliverability, type LeadsExportFormat } from './leads.ts';
import { declareRoutes } from '../routeDeclaration.ts';

/** GET /api/lead-searches/:id/export.json — the search with its stats, then every lead in delivery order. */
export const LeadsJsonExport = Type.Object({
  search: Type.Object({ ...LeadSearchSummary.properties, stats: LeadStats }),
  leads: Type.Array(Lead),
});
export type LeadsJsonExport = Static<typeof LeadsJsonExport>;

/** What the results table shows: words to find, contact routes a lead must have, an email deliverability. */
export interface LeadFilter {
  text: string;
  hasEmail: boolean;
  hasPhone: boolean;
  emailDeliverability: EmailDeliverability | '';
}

export const NO_FILTER: LeadFilter = { text: '', hasEmail: false, hasPhone: false, emailDeliverability: '' };

const searchable = (lead: Lead): string =>
  [lead.name, lead.company, lead.email, lead.phone, lead.phone_display, lead.website, lead.city, lead.address].filter(Boolean).join(' ').toLowerCase();

/**
 * Whether a lead passes the filter: every typed word somewhere in its text, and each box ticked. The
 * results table and the exports both filter with it, so a file holds exactly the rows on screen.
 */
export function matchesFilter(lead: Lead, filter: LeadFilter): boolean {
  if (filter.hasEmail && !lead.email) return false;
  if (filter.hasPhone && !lead.phone) return false;
  if (filter.emailDeliverability && lead.email_deliverability !== filter.emailDeliverability) return false;
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = searchable(lead);
  return words.every((word) => text.includes(word));
}

const DELIVERABILITY_RULE = `email_deliverability must be one of ${EMAIL_DELIVERABILITIES.join(', ')}`;

/**
 * Which leads an export holds. `leads=1,4,7` numbers them in delivery order (the order of a search's
 * `leads`, from 1), for exporting the rows a user selected; `q`, `has_email`, `has_phone` and
 * `email_deliverability` are the results table's filter (matchesFilter). Without any, every lead of the search.
 */
export const LeadsExportQuery = Type.Object({
  leads: Type.Optional(Type.String({
    pattern: '^[1-9][0-9]{0,5}(,[1-9][0-9]{0,5}){0,999}$',
    maxLength: 8000,
    errorMessage: 'leads must be lead numbers from 1, separated by commas (such as 1,4,7)',
  })),
  q: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'q must be at most 200 characters' })),
  has_email: Type.Optional(Type.Boolean({ errorMessage: 'has_email must be true or false' })),
  has_phone: Type.Optional(Type.Boolean({ errorMessage: 'has_phone must be true or false' })),
  email_deliverability: Type.Optional(Type.Union([
    Type.Literal('deliverable', { errorMessage: DELIVERABILITY_RULE }), Type.Literal('undeliverable', { errorMessage: DELIVERABILITY_RULE }),
    Type.Literal('accept_all', { errorMessage: DELIVERABILITY_RULE }), Type.Literal('unknown', { errorMessage: DELIVERABILITY_RULE }),
  ])),
}, { additionalProperties: false });
export type LeadsExportQuery = Static<typeof LeadsExportQuery>;

/** The lead numbers of an export's `leads=` (each once, in order); undefined for every lead. */
export const exportedLeadNumbers = (leads: string | undefined): number[] | undefined =>
  leads === undefined ? undefined : [...new Set(leads.split(',').map(Number))].sort((a, b) => a - b);

/** The filter an export's query asks for; undefined when it asks for none (every lead passes). */
export function exportFilter(query: LeadsExportQuery): LeadFilter | undefined {
  const filter: LeadFilter = { text: query.q?.trim() ?? '', hasEmail: query.has_email ?? false, hasPhone: query.has_phone ?? false, emailDeliverability: query.email_deliverability ?? '' };
  return filter.text || filter.hasEmail || filter.hasPhone || filter.emailDeliverability ? filter : undefined;
}

/** The export query of the table's filter and selection (only what is set), as the SPA sends it. */
export function exportQueryOf(filter: LeadFilter, selected?: readonly number[]): LeadsExportQuery {
  return {
    ...(selected ? { leads: selected.join(',') } : {}),
    ...(filter.text.trim() ? { q: filter.text.trim() } : {}),
    ...(filter.hasEmail ? { has_email: true } : {}),
    ...(filter.hasPhone ? { has_phone: true } : {}),
    ...(filter.emailDeliverability ? { email_deliverability: filter.emailDeliverability } : {}),
  };
}

/**
 * The columns of the CSV and Excel exports, one list so they agree with each other and with JSON:
 * the spec's six, the address, country and social profiles a lead may carry, its decision-maker's role,
 * then its verdicts and provenance.
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
  // The role of the decision-maker in Name: normalised ("Managing director"), then as the page writes it.
  { header: 'Role', key: 'role', width: 20 },
  { header: 'Role as written', key: 'role_text', width: 24 },
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

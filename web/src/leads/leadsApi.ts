import type { GenerateLeadsRequest, LeadSearchDetail, LeadSearchHistoryQuery, LeadSearchPage, LeadSearchSummary, LeadsExportFormat, LeadsExportQuery } from '@leadforge/contracts';
import { leadsExportFileName } from '@leadforge/contracts';
import { api } from '../api/client';
import { tokenStorage } from '../api/tokenStorage';

export async function startLeadSearch(request: GenerateLeadsRequest): Promise<LeadSearchSummary> {
  const { data } = await api.post<LeadSearchSummary>('/api/lead-searches', request);
  return data;
}

export async function fetchLeadSearch(id: string): Promise<LeadSearchDetail> {
  const { data } = await api.get<LeadSearchDetail>(`/api/lead-searches/${encodeURIComponent(id)}`);
  return data;
}

export async function cancelLeadSearch(id: string): Promise<LeadSearchSummary> {
  const { data } = await api.delete<LeadSearchSummary>(`/api/lead-searches/${encodeURIComponent(id)}`);
  return data;
}

/** The history's filters, as the server takes them (empty ones left out). */
export type HistoryFilters = Pick<LeadSearchHistoryQuery, 'q' | 'status' | 'from' | 'to'>;

/** Query keys of the user's searches: every history page sits under `history`, to be marked stale together. */
export const leadSearchKeys = {
  history: ['lead-searches'] as const,
  historyPage: (page: number, pageSize: number, filters: HistoryFilters = {}) => ['lead-searches', { page, pageSize, ...filters }] as const,
};

export async function fetchSearchHistory(page: number, pageSize: number, filters: HistoryFilters = {}): Promise<LeadSearchPage> {
  const given = Object.fromEntries(Object.entries(filters).filter(([, value]) => value));
  const { data } = await api.get<LeadSearchPage>('/api/lead-searches', { params: { page, page_size: pageSize, ...given } });
  return data;
}

/** The file name the server gave the download (Content-Disposition), which says which part of the search it holds. */
const attachmentName = (disposition: unknown): string | undefined =>
  typeof disposition === 'string' ? /filename="([^"]+)"/.exec(disposition)?.[1] : undefined;

/**
 * Downloads the server's export of a search (CSV, JSON or Excel; streamed there, so any size) and
 * saves it under the server's file name. Fetched with the session's token, which a plain link could not carry.
 * `query` narrows it to what the table shows: the selected rows (`leads`, from 1 in delivery order) or its filter.
 */
export async function downloadSearchExport(
  search: Pick<LeadSearchSummary, 'id' | 'industry' | 'location' | 'created_at'>,
  format: LeadsExportFormat = 'csv',
  query: LeadsExportQuery = {},
): Promise<void> {
  const { data, headers } = await api.get<Blob>(`/api/lead-searches/${encodeURIComponent(search.id)}/export.${format}`, { responseType: 'blob', params: query });
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = attachmentName(headers['content-disposition']) ?? leadsExportFileName(search.industry, search.location, search.created_at, format);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const authHeader = (): Record<string, string> => {
  const token = tokenStorage.read();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

import type { GenerateLeadsRequest, LeadSearchDetail, LeadSearchPage, LeadSearchSummary, LeadsExportFormat } from '@leadforge/contracts';
import { leadsExportFileName } from '@leadforge/contracts';
import { api } from '../api/client';
import { tokenStorage } from '../auth/tokenStorage';

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

/** Query keys of the user's searches: every history page sits under `history`, to be marked stale together. */
export const leadSearchKeys = {
  history: ['lead-searches'] as const,
  historyPage: (page: number, pageSize: number) => ['lead-searches', { page, pageSize }] as const,
};

export async function fetchSearchHistory(page: number, pageSize: number): Promise<LeadSearchPage> {
  const { data } = await api.get<LeadSearchPage>('/api/lead-searches', { params: { page, page_size: pageSize } });
  return data;
}

/**
 * Downloads the server's export of a search (CSV, JSON or Excel; streamed there, so any size) and
 * saves it under the spec's file name. Fetched with the session's token, which a plain link could not carry.
 */
export async function downloadSearchExport(search: Pick<LeadSearchSummary, 'id' | 'industry' | 'location' | 'created_at'>, format: LeadsExportFormat = 'csv'): Promise<void> {
  const { data } = await api.get<Blob>(`/api/lead-searches/${encodeURIComponent(search.id)}/export.${format}`, { responseType: 'blob' });
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = leadsExportFileName(search.industry, search.location, search.created_at, format);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const authHeader = (): Record<string, string> => {
  const token = tokenStorage.read();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

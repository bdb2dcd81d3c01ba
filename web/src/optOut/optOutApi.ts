import type { AdminOptOutList, OptOutEntry, OptOutPreview, OptOutRequest, OptOutResponse, OptOutScope } from '@leadforge/contracts';
import { api } from '../api/client';

/** The public opt-out request: only the fields given are sent. */
export async function requestOptOut(form: Required<Pick<OptOutRequest, 'email' | 'phone' | 'website' | 'reason'>>): Promise<OptOutResponse> {
  const body: OptOutRequest = {};
  for (const key of ['email', 'phone', 'website', 'reason'] as const) if (form[key].trim()) body[key] = form[key].trim();
  return (await api.post<OptOutResponse>('/api/opt-out', body)).data;
}

export interface OptOutListQuery {
  q?: string;
  page: number;
  page_size: number;
}

/** Query keys of the admin's opt-out views; a decision marks the list and every preview stale. */
export const optOutKeys = {
  all: ['admin', 'opt-outs'] as const,
  list: (query: OptOutListQuery) => ['admin', 'opt-outs', 'list', query] as const,
  preview: (id: string, scope: OptOutScope) => ['admin', 'opt-outs', 'preview', id, scope] as const,
};

export async function fetchOptOuts(params: OptOutListQuery): Promise<AdminOptOutList> {
  return (await api.get<AdminOptOutList>('/api/admin/opt-outs', { params: params.q ? params : { page: params.page, page_size: params.page_size } })).data;
}

export type OptOutDecision = 'approve' | 'reject' | 'lift';

/** `scope: 'domain'` (approve only) widens the website to its registrable domain. */
export async function decideOptOut(id: string, decision: OptOutDecision, scope: OptOutScope = 'host'): Promise<OptOutEntry> {
  const path = `/api/admin/opt-outs/${encodeURIComponent(id)}`;
  if (decision === 'lift') return (await api.delete<OptOutEntry>(path)).data;
  return (await api.post<OptOutEntry>(`${path}/${decision}`, decision === 'approve' ? { scope } : undefined)).data;
}

/** What approving the website at `scope` would blank in searches already made. */
export async function previewOptOut(id: string, scope: OptOutScope): Promise<OptOutPreview> {
  return (await api.get<OptOutPreview>(`/api/admin/opt-outs/${encodeURIComponent(id)}/preview`, { params: { scope } })).data;
}

/** Spends the token of the link mailed to the address; answers what is removed now. */
export async function confirmOptOut(token: string): Promise<string> {
  return (await api.post<OptOutResponse>('/api/opt-out/confirm', { token })).data.message;
}

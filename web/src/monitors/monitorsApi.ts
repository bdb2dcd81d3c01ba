import type { CreateMonitorRequest, LeadSearchDetail, Monitor, MonitorList, MonitorRunList, MonitorRunStarted, UpdateMonitorRequest } from '@leadforge/contracts';
import { api } from '../api/client';

/** Query keys of the user's monitors: the list, and each monitor's runs under it (marked stale together). */
export const monitorKeys = {
  all: ['monitors'] as const,
  runs: (id: string) => ['monitors', id, 'runs'] as const,
  run: (searchId: string) => ['lead-searches', searchId] as const,
};

export async function listMonitors(): Promise<Monitor[]> {
  const { data } = await api.get<MonitorList>('/api/monitors');
  return data.monitors;
}

export async function createMonitor(request: CreateMonitorRequest): Promise<Monitor> {
  const { data } = await api.post<Monitor>('/api/monitors', request);
  return data;
}

export async function updateMonitor(id: string, changes: UpdateMonitorRequest): Promise<Monitor> {
  const { data } = await api.patch<Monitor>(`/api/monitors/${encodeURIComponent(id)}`, changes);
  return data;
}

export async function deleteMonitor(id: string): Promise<void> {
  await api.delete(`/api/monitors/${encodeURIComponent(id)}`);
}

export async function runMonitorNow(id: string): Promise<string> {
  const { data } = await api.post<MonitorRunStarted>(`/api/monitors/${encodeURIComponent(id)}/run`);
  return data.search_id;
}

export async function listRuns(id: string) {
  const { data } = await api.get<MonitorRunList>(`/api/monitors/${encodeURIComponent(id)}/runs`);
  return data.runs;
}

export async function fetchRunSearch(searchId: string): Promise<LeadSearchDetail> {
  const { data } = await api.get<LeadSearchDetail>(`/api/lead-searches/${encodeURIComponent(searchId)}`);
  return data;
}

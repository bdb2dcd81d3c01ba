import type { ApiKeyList, ApiKeySummary, CreateApiKeyRequest, CreatedApiKey } from '@leadforge/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client';

export async function listApiKeys(): Promise<ApiKeySummary[]> {
  const { data } = await api.get<ApiKeyList>('/api/api-keys');
  return data.keys;
}

/** The user's keys, read by the keys section and the curl example alike; a password change may revoke them. */
export const apiKeysQuery = queryOptions({ queryKey: ['api-keys'], queryFn: listApiKeys });

export async function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  const { data } = await api.post<CreatedApiKey>('/api/api-keys', request);
  return data;
}

export async function revokeApiKey(id: string): Promise<void> {
  await api.delete(`/api/api-keys/${encodeURIComponent(id)}`);
}

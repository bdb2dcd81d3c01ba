import type { ApiKeyList, ApiKeySummary, CreateApiKeyRequest, CreatedApiKey } from '@leadforge/contracts';
import { api } from '../api/client';

export async function listApiKeys(): Promise<ApiKeySummary[]> {
  const { data } = await api.get<ApiKeyList>('/api/api-keys');
  return data.keys;
}

export async function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  const { data } = await api.post<CreatedApiKey>('/api/api-keys', request);
  return data;
}

export async function revokeApiKey(id: string): Promise<void> {
  await api.delete(`/api/api-keys/${encodeURIComponent(id)}`);
}

import type {
  CreateWebhookRequest, CreatedWebhookEndpoint, WebhookDeliveryAttempt, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList, WebhookTestQueued,
} from '@leadforge/contracts';
import { api } from '../api/client';

/** Query keys of the user's webhook endpoints and each endpoint's delivery attempts. */
export const webhookKeys = {
  endpoints: ['webhooks'] as const,
  deliveries: (id: string) => ['webhooks', id, 'deliveries'] as const,
};

const path = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`;

export async function listWebhooks(): Promise<WebhookEndpoint[]> {
  const { data } = await api.get<WebhookEndpointList>('/api/webhooks');
  return data.webhooks;
}

export async function createWebhook(request: CreateWebhookRequest): Promise<CreatedWebhookEndpoint> {
  const { data } = await api.post<CreatedWebhookEndpoint>('/api/webhooks', request);
  return data;
}

export async function deleteWebhook(id: string): Promise<void> {
  await api.delete(path(id));
}

export async function sendTestEvent(id: string): Promise<string> {
  const { data } = await api.post<WebhookTestQueued>(`${path(id)}/test`);
  return data.delivery_id;
}

export async function listDeliveries(id: string): Promise<WebhookDeliveryAttempt[]> {
  const { data } = await api.get<WebhookDeliveryList>(`${path(id)}/deliveries`);
  return data.deliveries;
}

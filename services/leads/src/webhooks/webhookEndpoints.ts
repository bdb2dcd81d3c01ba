import { v7 as uuidv7 } from 'uuid';
import type { WebhookEndpoint, WebhookEventName } from '@leadforge/contracts';
import type { DbOrTrx } from '../domain/searchRecord.ts';
import { newWebhookSecret } from './webhookSignature.ts';

export interface EndpointRow {
  id: string;
  user_id: string;
  url: string;
  events: WebhookEventName[] | string;
  secret: string;
  created_at: Date;
}

/** Endpoints one user may have. */
export const MAX_ENDPOINTS_PER_USER = 10;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const eventsOf = (row: Pick<EndpointRow, 'events'>): WebhookEventName[] =>
  typeof row.events === 'string' ? JSON.parse(row.events) : row.events;

export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: eventsOf(row),
  created_at: new Date(row.created_at).toISOString(),
});

export async function createEndpoint(db: DbOrTrx, userId: string, url: string, events: WebhookEventName[]): Promise<EndpointRow> {
  const [row]: EndpointRow[] = await db('webhook_endpoints')
    .insert({ id: uuidv7(), user_id: userId, url, events: JSON.stringify(events), secret: newWebhookSecret() })
    .returning('*');
  return row;
}

export async function countEndpoints(db: DbOrTrx, userId: string): Promise<number> {
  const [{ total }] = await db('webhook_endpoints').where({ user_id: userId }).count({ total: '*' });
  return Number(total);
}

export const listEndpoints = (db: DbOrTrx, userId: string): Promise<EndpointRow[]> =>
  db('webhook_endpoints').where({ user_id: userId }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]);

/** This user's endpoint, or undefined: another user's id, a malformed id and a missing one look alike. */
export async function findOwnEndpoint(db: DbOrTrx, userId: string, id: string): Promise<EndpointRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db('webhook_endpoints').where({ id, user_id: userId }).first();
}

/** Removes the endpoint with its deliveries (pending ones are never sent). True when there was one. */
export async function deleteOwnEndpoint(db: DbOrTrx, userId: string, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const deleted = await db('webhook_endpoints').where({ id, user_id: userId }).delete().returning('id');
  return deleted.length > 0;
}

/** A deleted account's endpoints go, with their secrets and deliveries. */
export async function eraseEndpointsOf(db: DbOrTrx, userId: string): Promise<void> {
  await db('webhook_endpoints').where({ user_id: userId }).delete();
}

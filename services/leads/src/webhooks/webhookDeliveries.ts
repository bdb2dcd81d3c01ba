import { v7 as uuidv7 } from 'uuid';
import { WEBHOOK_TEST_EVENT, type Lead, type LeadSearchWebhookPayload, type MonitorRunWebhookPayload, type WebhookDeliveryAttempt, type WebhookDeliveryStatus, type WebhookEventName } from '@leadforge/contracts';
import { statsOf, toSummary, type DbOrTrx, type SearchRow } from '../domain/searchRecord.ts';
import { eventsOf, type EndpointRow } from './webhookEndpoints.ts';

/** The webhook event a search's end makes, or undefined (a cancelled search tells no webhook). */
export function eventOfSearch(search: SearchRow): WebhookEventName | undefined {
  if (search.status === 'completed') return 'lead_search.completed';
  if (search.status === 'failed') return 'lead_search.failed';
  return undefined;
}

/** Where the search and its exports are, absolute so a receiver can fetch them with its API key. */
export function searchLinks(publicUrl: string, searchId: string) {
  const search = `${publicUrl}/api/lead-searches/${searchId}`;
  return { search, export_csv: `${search}/export.csv`, export_json: `${search}/export.json`, export_xlsx: `${search}/export.xlsx` };
}

/**
 * Queues one delivery per endpoint of the search's owner that listens to its event, in the caller's
 * transaction (the one that settles the search): the deliveries exist if and only if the end is
 * recorded, and the unique key keeps a second call from doubling them. Returns how many were queued.
 */
export async function queueSearchDeliveries(trx: DbOrTrx, search: SearchRow, publicUrl: string, retryForMs: number): Promise<number> {
  const event = eventOfSearch(search);
  if (!event) return 0;
  const endpoints: EndpointRow[] = await trx('webhook_endpoints').where({ user_id: search.user_id });
  const listening = endpoints.filter((endpoint) => eventsOf(endpoint).includes(event));
  if (!listening.length) return 0;
  const now = new Date();
  const rows = listening.map((endpoint) => {
    const id = uuidv7();
    const payload: LeadSearchWebhookPayload = {
      event,
      delivery_id: id,
      created_at: now.toISOString(),
      data: { ...toSummary(search), stats: statsOf(search), links: searchLinks(publicUrl, search.id) },
    };
    return { id, endpoint_id: endpoint.id, event, search_id: search.id, body: JSON.stringify(payload), give_up_at: new Date(now.getTime() + retryForMs) };
  });
  const inserted = await trx('webhook_deliveries').insert(rows).onConflict(['endpoint_id', 'event', 'search_id']).ignore().returning('id');
  return inserted.length;
}

/**
 * Queues `monitor.run.completed` to each endpoint of the user that listens to it, with the run's new
 * businesses, in the transaction that closes the run's books (the unique key keeps it once).
 */
export async function queueMonitorRunDeliveries(trx: DbOrTrx, search: SearchRow, newLeads: Lead[], retryForMs: number): Promise<number> {
  if (!search.monitor_id) return 0;
  const endpoints: EndpointRow[] = await trx('webhook_endpoints').where({ user_id: search.user_id });
  const listening = endpoints.filter((endpoint) => eventsOf(endpoint).includes('monitor.run.completed'));
  if (!listening.length) return 0;
  const now = new Date();
  const rows = listening.map((endpoint) => {
    const id = uuidv7();
    const payload: MonitorRunWebhookPayload = {
      event: 'monitor.run.completed',
      delivery_id: id,
      created_at: now.toISOString(),
      data: { monitor_id: search.monitor_id!, search_id: search.id, industry: search.industry, location: search.location, credits_used: search.credits_used, new_leads: newLeads },
    };
    return { id, endpoint_id: endpoint.id, event: payload.event, search_id: search.id, body: JSON.stringify(payload), give_up_at: new Date(now.getTime() + retryForMs) };
  });
  const inserted = await trx('webhook_deliveries').insert(rows).onConflict(['endpoint_id', 'event', 'search_id']).ignore().returning('id');
  return inserted.length;
}

/** Test events of one endpoint still waiting to be delivered: a few at a time, so the action cannot flood anyone. */
export const MAX_PENDING_TESTS = 3;

export async function pendingTestDeliveries(db: DbOrTrx, endpointId: string): Promise<number> {
  const [{ total }] = await db('webhook_deliveries').where({ endpoint_id: endpointId, event: WEBHOOK_TEST_EVENT, status: 'pending' }).count({ total: '*' });
  return Number(total);
}

/** Queues a test event to one endpoint (the "send test event" action); it shows in its deliveries like any other. */
export async function queueTestDelivery(db: DbOrTrx, endpoint: EndpointRow, retryForMs: number): Promise<string> {
  const id = uuidv7();
  const now = new Date();
  const body = JSON.stringify({
    event: WEBHOOK_TEST_EVENT,
    delivery_id: id,
    created_at: now.toISOString(),
    data: { webhook_id: endpoint.id, message: 'A test event from Leadforge: your endpoint is reachable and can verify the signature.' },
  });
  await db('webhook_deliveries').insert({ id, endpoint_id: endpoint.id, event: WEBHOOK_TEST_EVENT, search_id: null, body, give_up_at: new Date(now.getTime() + retryForMs) });
  return id;
}

interface AttemptRow {
  delivery_id: string;
  event: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  status: WebhookDeliveryStatus;
}

/** The endpoint's latest attempts, newest first: one entry per attempt, retries sharing their delivery id. */
export async function listAttempts(db: DbOrTrx, endpointId: string, limit = 100): Promise<WebhookDeliveryAttempt[]> {
  const rows: AttemptRow[] = await db('webhook_attempts as a')
    .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .where('d.endpoint_id', endpointId)
    .orderBy([{ column: 'a.attempted_at', order: 'desc' }, { column: 'a.attempt', order: 'desc' }])
    .limit(limit)
    .select('a.delivery_id', 'd.event', 'a.attempt', 'a.attempted_at', 'a.status_code', 'a.error', 'a.duration_ms', 'd.status');
  return rows.map((row) => ({
    delivery_id: row.delivery_id,
    event: row.event,
    attempt: row.attempt,
    attempted_at: new Date(row.attempted_at).toISOString(),
    status_code: row.status_code,
    error: row.error,
    duration_ms: row.duration_ms,
    delivery_status: row.status,
  }));
}

import { Type, type Static } from 'typebox';
import { Timestamp, Uuid } from './common.ts';
import { LeadSearchSummary, LeadStats } from './leads.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

/** What a webhook endpoint can subscribe to: a lead search's end, a monitor run's new businesses. */
export const WEBHOOK_EVENTS = ['lead_search.completed', 'lead_search.failed', 'monitor.run.completed'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
/** The event a "send test event" delivers; never subscribed to, always sent when asked. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WebhookEvent = Type.Union([Type.Literal('lead_search.completed'), Type.Literal('lead_search.failed'), Type.Literal('monitor.run.completed')]);

const EVENTS_RULE = `events must list at least one of ${WEBHOOK_EVENTS.join(', ')}`;

/** POST /api/webhooks */
export const CreateWebhookRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, errorMessage: 'url must be an http(s) URL of at most 2048 characters' }),
  // The rule on each literal: a wrong name fails the first literal, whose message is the one shown.
  events: Type.Array(Type.Union([
    Type.Literal('lead_search.completed', { errorMessage: EVENTS_RULE }),
    Type.Literal('lead_search.failed', { errorMessage: EVENTS_RULE }),
    Type.Literal('monitor.run.completed', { errorMessage: EVENTS_RULE }),
  ]), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, errorMessage: EVENTS_RULE }),
}, { additionalProperties: false, errorMessage: { required: 'url and events are required' } });
export type CreateWebhookRequest = Static<typeof CreateWebhookRequest>;

export const WebhookEndpoint = Type.Object({
  id: Uuid,
  url: Type.String(),
  events: Type.Array(WebhookEvent),
  created_at: Timestamp,
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** The 201 answer: the signing secret is shown here once and never again. */
export const CreatedWebhookEndpoint = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ description: 'Signing secret (whsec_...): shown only in this answer.' }),
});
export type CreatedWebhookEndpoint = Static<typeof CreatedWebhookEndpoint>;

/** GET /api/webhooks */
export const WebhookEndpointList = Type.Object({ webhooks: Type.Array(WebhookEndpoint) });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const WebhookId = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const WebhookDeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

/** One attempt at one delivery; a delivery's retries share its `delivery_id`. */
export const WebhookDeliveryAttempt = Type.Object({
  delivery_id: Uuid,
  event: Type.String(),
  attempt: Type.Integer({ minimum: 1 }),
  attempted_at: Timestamp,
  /** The receiver's HTTP status, or null when no answer came (then `error` says why). */
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Integer({ minimum: 0 }),
  /** Where the delivery stands now: pending (a retry is due), delivered or failed (given up). */
  delivery_status: WebhookDeliveryStatus,
});
export type WebhookDeliveryAttempt = Static<typeof WebhookDeliveryAttempt>;

/** GET /api/webhooks/:id/deliveries — newest first. */
export const WebhookDeliveryList = Type.Object({ deliveries: Type.Array(WebhookDeliveryAttempt) });
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;

/** POST /api/webhooks/:id/test — 202: the test delivery is queued and shows in the deliveries. */
export const WebhookTestQueued = Type.Object({ delivery_id: Uuid });
export type WebhookTestQueued = Static<typeof WebhookTestQueued>;

export const LeadSearchLinks = Type.Object({
  search: Type.String(),
  export_csv: Type.String(),
  export_json: Type.String(),
  export_xlsx: Type.String(),
});

/** The body of a lead-search delivery (what the signature covers, byte for byte). */
export const LeadSearchWebhookPayload = Type.Object({
  event: Type.String(),
  delivery_id: Uuid,
  created_at: Timestamp,
  data: Type.Object({
    ...LeadSearchSummary.properties,
    stats: LeadStats,
    links: LeadSearchLinks,
  }),
});
export type LeadSearchWebhookPayload = Static<typeof LeadSearchWebhookPayload>;

const errors = errorReplies(400, 401, 404, 429);

/** A user's webhook endpoints: register (the secret shown once), list, delete, deliveries, a test event. */
export const WEBHOOK_ROUTES = declareRoutes('leads', {
  create: { method: 'POST', path: '/api/webhooks', access: 'user', apiKey: true, schema: { body: CreateWebhookRequest, response: { 201: CreatedWebhookEndpoint, ...errors } } },
  list: { method: 'GET', path: '/api/webhooks', access: 'user', apiKey: true, schema: { response: { 200: WebhookEndpointList, ...errors } } },
  delete: { method: 'DELETE', path: '/api/webhooks/:id', access: 'user', apiKey: true, schema: { params: WebhookId, response: { 204: Type.Null(), ...errors } } },
  deliveries: { method: 'GET', path: '/api/webhooks/:id/deliveries', access: 'user', apiKey: true, schema: { params: WebhookId, response: { 200: WebhookDeliveryList, ...errors } } },
  test: { method: 'POST', path: '/api/webhooks/:id/test', access: 'user', apiKey: true, schema: { params: WebhookId, response: { 202: WebhookTestQueued, ...errors } } },
});

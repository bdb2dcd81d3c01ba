import { Type, type Static } from 'typebox';
import { Timestamp, Uuid } from './common.ts';
import { Lead, MAX_LEADS_PER_REQUEST, SearchText } from './leads.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

/** How often a monitor runs by itself. */
export const MONITOR_FREQUENCIES = ['daily', 'weekly'] as const;
export type MonitorFrequency = (typeof MONITOR_FREQUENCIES)[number];

export const MAX_LEADS_PER_RUN_RULE = `max_leads_per_run must be a whole number from 1 to ${MAX_LEADS_PER_REQUEST}`;
const FREQUENCY_RULE = 'frequency must be "daily" or "weekly"';
const STATUS_RULE = 'status must be "active" or "paused"';
const NOTIFY_RULE = 'notify_email must be true or false';

const MaxLeadsPerRun = Type.Integer({
  minimum: 1,
  maximum: MAX_LEADS_PER_REQUEST,
  errorMessage: { type: MAX_LEADS_PER_RUN_RULE, minimum: MAX_LEADS_PER_RUN_RULE, maximum: MAX_LEADS_PER_RUN_RULE },
});
// The rule on each literal: a wrong value fails the first literal, whose message is the one shown.
const Frequency = Type.Union([
  Type.Literal('daily', { errorMessage: FREQUENCY_RULE }),
  Type.Literal('weekly', { errorMessage: FREQUENCY_RULE }),
], { errorMessage: FREQUENCY_RULE });
const MonitorStatus = Type.Union([
  Type.Literal('active', { errorMessage: STATUS_RULE }),
  Type.Literal('paused', { errorMessage: STATUS_RULE }),
], { errorMessage: STATUS_RULE });
const NotifyEmail = Type.Boolean({ errorMessage: NOTIFY_RULE });

/** POST /api/monitors */
export const CreateMonitorRequest = Type.Object({
  industry: SearchText('Industry', 100),
  location: SearchText('Location', 200),
  max_leads_per_run: MaxLeadsPerRun,
  frequency: Frequency,
  notify_email: Type.Optional(NotifyEmail),
}, { additionalProperties: false, errorMessage: { required: 'industry, location, max_leads_per_run and frequency are required' } });
export type CreateMonitorRequest = Static<typeof CreateMonitorRequest>;

/** PATCH /api/monitors/:id: any of these. */
export const UpdateMonitorRequest = Type.Object({
  status: Type.Optional(MonitorStatus),
  max_leads_per_run: Type.Optional(MaxLeadsPerRun),
  frequency: Type.Optional(Frequency),
  notify_email: Type.Optional(NotifyEmail),
}, { additionalProperties: false, minProperties: 1, errorMessage: { minProperties: 'Give at least one of status, max_leads_per_run, frequency, notify_email' } });
export type UpdateMonitorRequest = Static<typeof UpdateMonitorRequest>;

export const MonitorId = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * One run of a monitor. `status` is its search's (running, completed, failed, cancelled), or
 * `insufficient_credits` when the balance allowed no lead (no search, nothing charged).
 */
export const MonitorRunStatus = Type.Union([
  Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled'), Type.Literal('insufficient_credits'),
]);
export type MonitorRunStatus = Static<typeof MonitorRunStatus>;

export const MonitorRun = Type.Object({
  /** The run's lead search (in the history, with `monitor_id`); null when it could not start (insufficient_credits). */
  search_id: Type.Union([Uuid, Type.Null()]),
  status: MonitorRunStatus,
  /** Businesses the user had never received before, delivered by this run. */
  new_leads: Type.Integer({ minimum: 0 }),
  credits_used: Type.Integer({ minimum: 0 }),
  /** `schedule` (its due time came) or `manual` (run now). */
  trigger: Type.Union([Type.Literal('schedule'), Type.Literal('manual')]),
  started_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()]),
});
export type MonitorRun = Static<typeof MonitorRun>;

export const Monitor = Type.Object({
  id: Uuid,
  industry: Type.String(),
  location: Type.String(),
  max_leads_per_run: Type.Integer(),
  frequency: Frequency,
  status: MonitorStatus,
  notify_email: Type.Boolean(),
  /** When it runs next by itself (a run may start up to the scheduler's spread later); null while paused. */
  next_run_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  /** The latest run, if any. */
  last_run: Type.Union([MonitorRun, Type.Null()]),
});
export type Monitor = Static<typeof Monitor>;

/** GET /api/monitors/:id: the monitor with its recent runs, newest first. */
export const MonitorDetail = Type.Object({ ...Monitor.properties, runs: Type.Array(MonitorRun) });
export type MonitorDetail = Static<typeof MonitorDetail>;

export const MonitorList = Type.Object({ monitors: Type.Array(Monitor) });
export type MonitorList = Static<typeof MonitorList>;

/** GET /api/monitors/:id/runs, newest first. */
export const MonitorRunList = Type.Object({ runs: Type.Array(MonitorRun) });
export type MonitorRunList = Static<typeof MonitorRunList>;

/** POST /api/monitors/:id/run: 202, the run's search (follow it like any search). */
export const MonitorRunStarted = Type.Object({ search_id: Uuid });
export type MonitorRunStarted = Static<typeof MonitorRunStarted>;

/** The body of a `monitor.run.completed` webhook delivery: the run's new businesses. */
export const MonitorRunWebhookPayload = Type.Object({
  event: Type.Literal('monitor.run.completed'),
  delivery_id: Uuid,
  created_at: Timestamp,
  data: Type.Object({
    monitor_id: Uuid,
    search_id: Uuid,
    industry: Type.String(),
    location: Type.String(),
    credits_used: Type.Integer(),
    new_leads: Type.Array(Lead),
  }),
});
export type MonitorRunWebhookPayload = Static<typeof MonitorRunWebhookPayload>;

const errors = errorReplies(400, 401, 402, 404, 429, 503);

/** A user's monitors: create, list, read with recent runs, change, delete, run now, the runs. */
export const MONITOR_ROUTES = declareRoutes('leads', {
  create: { method: 'POST', path: '/api/monitors', access: 'user', apiKey: true, schema: { body: CreateMonitorRequest, response: { 201: Monitor, ...errors } } },
  list: { method: 'GET', path: '/api/monitors', access: 'user', apiKey: true, schema: { response: { 200: MonitorList, ...errors } } },
  get: { method: 'GET', path: '/api/monitors/:id', access: 'user', apiKey: true, schema: { params: MonitorId, response: { 200: MonitorDetail, ...errors } } },
  update: { method: 'PATCH', path: '/api/monitors/:id', access: 'user', apiKey: true, schema: { params: MonitorId, body: UpdateMonitorRequest, response: { 200: Monitor, ...errors } } },
  delete: { method: 'DELETE', path: '/api/monitors/:id', access: 'user', apiKey: true, schema: { params: MonitorId, response: { 204: Type.Null(), ...errors } } },
  run: { method: 'POST', path: '/api/monitors/:id/run', access: 'user', apiKey: true, schema: { params: MonitorId, response: { 202: MonitorRunStarted, ...errors } } },
  runs: { method: 'GET', path: '/api/monitors/:id/runs', access: 'user', apiKey: true, schema: { params: MonitorId, response: { 200: MonitorRunList, ...errors } } },
});

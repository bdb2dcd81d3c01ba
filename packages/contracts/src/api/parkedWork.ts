import { Type, type Static } from 'typebox';
import { declareRoutes, errorReplies, SERVICES } from '../routeDeclaration.ts';
import { ParkedKind, ParkedWorkItem, ReplayParkedWorkRequest, ReplayParkedWorkResponse } from '../internal/parkedWork.ts';

// Each literal carries the message: the first error a bad value meets is its branch's.
const SERVICE_MESSAGE = { errorMessage: `service must be one of ${SERVICES.join(', ')}` };
const ServiceField = Type.Union([
  Type.Literal('auth', SERVICE_MESSAGE), Type.Literal('billing', SERVICE_MESSAGE), Type.Literal('leads', SERVICE_MESSAGE), Type.Literal('scraper', SERVICE_MESSAGE),
  Type.Literal('affiliate', SERVICE_MESSAGE), Type.Literal('contact', SERVICE_MESSAGE), Type.Literal('admin', SERVICE_MESSAGE),
]);

export const ParkedWorkQuery = Type.Object({
  service: Type.Optional(ServiceField),
  kind: Type.Optional(ParkedKind),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 25 })),
}, { additionalProperties: false });
export type ParkedWorkQuery = Static<typeof ParkedWorkQuery>;

export const AdminParkedWorkItem = Type.Object({ service: ServiceField, ...ParkedWorkItem.properties });
export type AdminParkedWorkItem = Static<typeof AdminParkedWorkItem>;

/** How much each service has parked, by kind; `error` when it did not answer (the others still show). */
export const ParkedWorkOfService = Type.Object({
  service: ServiceField,
  total: Type.Integer(),
  queue: Type.Integer(),
  outbox: Type.Integer(),
  dead_letters: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type ParkedWorkOfService = Static<typeof ParkedWorkOfService>;

/** GET /api/admin/parked-work: every service's parked work, oldest first, filtered and paginated. */
export const AdminParkedWorkResponse = Type.Object({
  items: Type.Array(AdminParkedWorkItem),
  page: Type.Integer(),
  page_size: Type.Integer(),
  /** Items matching the filter, over every page. */
  total: Type.Integer(),
  services: Type.Array(ParkedWorkOfService),
});
export type AdminParkedWorkResponse = Static<typeof AdminParkedWorkResponse>;

export const AdminReplayParkedWorkRequest = Type.Object({ service: ServiceField, ...ReplayParkedWorkRequest.properties }, { additionalProperties: false });
export type AdminReplayParkedWorkRequest = Static<typeof AdminReplayParkedWorkRequest>;

/** The admin panel's parked-work view and its replay, across every service. */
export const PARKED_WORK_ROUTES = declareRoutes('admin', {
  parkedWork: { method: 'GET', path: '/api/admin/parked-work', access: 'admin', schema: { querystring: ParkedWorkQuery, response: { 200: AdminParkedWorkResponse, ...errorReplies(400, 401, 403) } } },
  replayParkedWork: {
    method: 'POST', path: '/api/admin/parked-work/replay', access: 'admin',
    schema: { body: AdminReplayParkedWorkRequest, response: { 200: ReplayParkedWorkResponse, ...errorReplies(400, 401, 403, 404, 409, 502, 503) } },
  },
});

import { Type, type Static } from 'typebox';
import { MessageBody } from './common.ts';
import { DecodoQuotaRequest, ScrapeRequest, ScrapeResponse } from './scraper.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

/** The spec's "Proxy stats" entity: GET /api/admin/decodo-stats. */
export const ProxyStatsResponse = Type.Object({
  /** 'Connected', 'Disconnected' or 'Not configured'. */
  status: Type.String(),
  /** 'Success' or 'Failed': a request through the proxy just now; 'Not configured' when there is no proxy to test. */
  connection_test: Type.Union([Type.Literal('Success'), Type.Literal('Failed'), Type.Literal('Not configured')]),
  /** Subscription traffic left, with a note after ' - ' (Decodo's API has no money balance). */
  balance: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  last_updated: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type ProxyStatsResponse = Static<typeof ProxyStatsResponse>;

export const UsageStatsQuery = Type.Object({
  /** The places sources' figures of the last N UTC days, today included; since the last reset when absent. */
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, errorMessage: 'days must be a whole number from 1 to 366' })),
}, { additionalProperties: false });
export type UsageStatsQuery = Static<typeof UsageStatsQuery>;

/** One provider's use by searches in the period asked for: Nominatim geocoding the area, or a places source (PLACES_SOURCES). */
export const PlacesSourceUsage = Type.Object({
  source: Type.Union([Type.Literal('nominatim'), Type.Literal('osm'), Type.Literal('google'), Type.Literal('decodo')]),
  /** Provider requests sent within the searches' budget (SCRAPER_PROVIDER_REQUESTS_PER_SEARCH). */
  requests: Type.Integer(),
  /** Places its answers held, before the area check and merging (0 for nominatim). */
  places: Type.Integer(),
  /** Searches it failed (the error their coverage reports). */
  errors: Type.Integer(),
});
export type PlacesSourceUsage = Static<typeof PlacesSourceUsage>;

/** The spec's "Usage stats" entity: GET /api/admin/decodo-usage. */
export const UsageStatsResponse = Type.Object({
  total_successful: Type.Integer(),
  total_failed: Type.Integer(),
  /** Percent, 0-100, two decimals. */
  success_rate: Type.Number(),
  quota: Type.Object({ remaining_requests: Type.Integer() }),
  avg_response_time_ms: Type.Number(),
  total_requests: Type.Integer(),
  total_traffic_mb: Type.Number(),
  total_traffic_kb: Type.Number(),
  top_domains: Type.Array(Type.Object({ domain: Type.String(), count: Type.Integer() })),
  /** Fetched pages given up while reading them (nested too deep, over the parsing time budget). */
  pages_given_up: Type.Integer(),
  /** Time of the last recorded request, or null when there is none. */
  last_updated: Type.Union([Type.String(), Type.Null()]),
  /** Per provider with any use in the period (`days`, else since the last reset), most requests first. */
  places_sources: Type.Array(PlacesSourceUsage),
});
export type UsageStatsResponse = Static<typeof UsageStatsResponse>;

export const QuotaUpdatedResponse = Type.Object({ message: Type.String(), remaining_requests: Type.Integer() });

const errors = errorReplies(400, 401, 403);

/** The scraper's admin routes: a test fetch, and the Proxy Stats tab (status, usage, quota, reset). */
export const SCRAPER_ADMIN_ROUTES = declareRoutes('scraper', {
  scrape: { method: 'POST', path: '/api/scrape', access: 'admin', schema: { body: ScrapeRequest, response: { 200: ScrapeResponse, ...errors, ...errorReplies(422) } } },
  proxyStats: { method: 'GET', path: '/api/admin/decodo-stats', access: 'admin', schema: { response: { 200: ProxyStatsResponse, ...errors } } },
  usage: { method: 'GET', path: '/api/admin/decodo-usage', access: 'admin', schema: { querystring: UsageStatsQuery, response: { 200: UsageStatsResponse, ...errors } } },
  setQuota: { method: 'POST', path: '/api/admin/decodo-quota', access: 'admin', schema: { body: DecodoQuotaRequest, response: { 200: QuotaUpdatedResponse, ...errors } } },
  resetStats: { method: 'POST', path: '/api/admin/decodo-reset-stats', access: 'admin', schema: { response: { 200: MessageBody, ...errors } } },
});

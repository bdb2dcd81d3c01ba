/**
 * The Grafana dashboards, as code so that every panel has the same shape; generateDashboards.ts
 * writes them to deploy/grafana/*.json (the chart ships those to Grafana's dashboard sidecar).
 * Panels use only metrics the services export (test/cluster/metrics.test.ts checks it).
 */
type Json = Record<string, unknown>;

/** `instant`: the latest value only, in the query's order (a ranking rather than a history). */
interface Target { expr: string; legend: string; instant?: boolean }
interface Panel { title: string; description: string; unit: string; targets: Target[]; kind?: 'timeseries' | 'stat' | 'bargauge'; width?: number }

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
const HTTP = 'leadforge_http_request_duration_seconds';
/** Routes that stream or run long (SSE, synchronous lead generation, CSV export): kept out of latency. */
const LONG_ROUTES = 'route!~".*(generate-leads|/events|export.csv)"';

const datasourceVariable = { name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Data source', current: {}, hide: 0 };

function serviceVariable(): Json {
  return {
    name: 'service', label: 'Service', type: 'query', datasource: DATASOURCE,
    query: { query: `label_values(${HTTP}_count, service)`, refId: 'service' },
    definition: `label_values(${HTTP}_count, service)`,
    includeAll: true, multi: true, refresh: 2, current: {}, hide: 0, sort: 1,
  };
}

const OPTIONS: Record<NonNullable<Panel['kind']>, Json> = {
  timeseries: { legend: { displayMode: 'table', placement: 'bottom', calcs: ['mean', 'max'] }, tooltip: { mode: 'multi', sort: 'desc' } },
  stat: { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, colorMode: 'value', graphMode: 'area' },
  bargauge: { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, orientation: 'horizontal', displayMode: 'basic', showUnfilled: true },
};

function panel(p: Panel, index: number, y: number, x: number): Json {
  const width = p.width ?? 12;
  return {
    id: index + 1,
    type: p.kind ?? 'timeseries',
    title: p.title,
    description: p.description,
    datasource: DATASOURCE,
    gridPos: { h: p.kind === 'stat' ? 5 : 8, w: width, x, y },
    fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
    options: OPTIONS[p.kind ?? 'timeseries'],
    targets: p.targets.map((t, i) => ({ refId: String.fromCharCode(65 + i), expr: t.expr, legendFormat: t.legend, datasource: DATASOURCE, ...(t.instant ? { instant: true, range: false } : {}) })),
  };
}

function layout(panels: Panel[]): Json[] {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return panels.map((p, i) => {
    const width = p.width ?? 12;
    if (x + width > 24) { x = 0; y += rowHeight; rowHeight = 0; }
    const placed = panel(p, i, y, x);
    x += width;
    rowHeight = Math.max(rowHeight, p.kind === 'stat' ? 5 : 8);
    return placed;
  });
}

function dashboard(uid: string, title: string, description: string, panels: Panel[], perService = false): Json {
  return {
    uid,
    title,
    description,
    tags: ['leadforge'],
    timezone: 'browser',
    editable: true,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: { list: perService ? [datasourceVariable, serviceVariable()] : [datasourceVariable] },
    annotations: { list: [] },
    panels: layout(panels),
  };
}

/**
 * A series stays absent until its first event (no 5xx, no refund yet): such panels add zeros (`or`) so
 * that they show 0 rather than "No data", which would look like a broken query.
 */
const requestRate = `sum by (service) (rate(${HTTP}_count{service=~"$service"}[$__rate_interval]))`;
const zeroPerService = `0 * ${requestRate}`;

const quantile = (q: number) => ({
  expr: `histogram_quantile(${q}, sum by (service, le) (rate(${HTTP}_bucket{service=~"$service", ${LONG_ROUTES}}[$__rate_interval])))`,
  legend: `{{service}} p${Math.round(q * 100)}`,
});

export const goldenSignals = dashboard('leadforge-golden-signals', 'Leadforge / Golden signals', 'Rate, errors, latency and saturation of every service.', [
  { title: 'Requests per second', unit: 'reqps', description: 'HTTP requests each service answered.', targets: [{ expr: `sum by (service) (rate(${HTTP}_count{service=~"$service"}[$__rate_interval]))`, legend: '{{service}}' }] },
  { title: 'Errors (5xx share)', unit: 'percentunit', description: 'Share of requests answered with a server error.', targets: [{ expr: `(sum by (service) (rate(${HTTP}_count{service=~"$service", status_code=~"5.."}[$__rate_interval])) or ${zeroPerService}) / ${requestRate}`, legend: '{{service}}' }] },
  { title: 'Client errors (4xx per second)', unit: 'reqps', description: 'Refused requests: validation, auth, limits. A jump often means a broken client or an attack.', targets: [{ expr: `sum by (service, status_code) (rate(${HTTP}_count{service=~"$service", status_code=~"4.."}[$__rate_interval])) or on (service) ${zeroPerService}`, legend: '{{service}} {{status_code}}' }] },
  { title: 'Latency p50 / p95 / p99', unit: 's', description: 'Response time, streaming routes excluded.', targets: [quantile(0.5), quantile(0.95), quantile(0.99)] },
  { title: 'Slowest routes (p95)', unit: 's', description: 'The five routes with the highest p95.', targets: [{ expr: `topk(5, histogram_quantile(0.95, sum by (service, route, le) (rate(${HTTP}_bucket{service=~"$service", ${LONG_ROUTES}}[$__rate_interval]))))`, legend: '{{service}} {{route}}' }] },
  { title: 'CPU', unit: 'percentunit', description: 'CPU seconds per second of each pod (1 = one core).', targets: [{ expr: 'sum by (service, pod) (rate(process_cpu_seconds_total{service=~"$service"}[$__rate_interval]))', legend: '{{service}} {{pod}}' }] },
  { title: 'Memory (resident)', unit: 'bytes', description: 'Resident memory of each pod, against its limit in the chart.', targets: [{ expr: 'process_resident_memory_bytes{service=~"$service"}', legend: '{{service}} {{pod}}' }] },
  { title: 'Event-loop lag p99', unit: 's', description: 'Saturation of the Node event loop: above ~0.1 s requests queue.', targets: [{ expr: 'nodejs_eventloop_lag_p99_seconds{service=~"$service"}', legend: '{{service}} {{pod}}' }] },
  { title: 'Restarts (process starts, 1 h)', unit: 'short', description: 'Process starts per pod in the last hour.', targets: [{ expr: 'changes(process_start_time_seconds{service=~"$service"}[1h])', legend: '{{service}} {{pod}}' }] },
], true);

export const leadPipeline = dashboard('leadforge-lead-pipeline', 'Leadforge / Lead pipeline', 'Searches from request to leads delivered.', [
  { title: 'Searches started per minute', unit: 'short', description: 'Lead generation requests accepted by the leads service (2xx).', targets: [{ expr: `sum by (route) (rate(${HTTP}_count{service="leads", method="POST", route=~"/api/(generate-leads|lead-searches)", status_code=~"2.."}[$__rate_interval])) * 60`, legend: '{{route}}' }] },
  { title: 'Searches finished per minute, by reason', unit: 'short', description: 'done, quota_exhausted, deadline, cancelled, source_failed.', targets: [{ expr: 'sum by (reason) (rate(leadforge_scraper_searches_finished_total[$__rate_interval])) * 60', legend: '{{reason}}' }] },
  { title: 'Leads delivered per second', unit: 'short', description: 'Leads with a contact route sent back to the leads service.', targets: [{ expr: 'sum(rate(leadforge_scraper_leads_delivered_total[$__rate_interval]))', legend: 'leads/s' }] },
  { title: 'Extraction hit rate', unit: 'percentunit', description: 'Share of processed places that became a lead (outcome=lead), and the other outcomes.', targets: [{ expr: 'sum by (outcome) (rate(leadforge_scraper_places_processed_total[$__rate_interval])) / ignoring(outcome) group_left sum(rate(leadforge_scraper_places_processed_total[$__rate_interval]))', legend: '{{outcome}}' }] },
  { title: 'Search requests waiting for a scraper', unit: 'short', description: 'Kafka consumer lag on leads.search: what KEDA scales the scraper on.', targets: [{ expr: 'sum by (group) (leadforge_bus_consumer_lag{topic="leads.search"})', legend: '{{group}}' }] },
  { title: 'Open scraper jobs', unit: 'short', description: 'Searches the scraper has not finished, by state: queued ones wait for a replica. Every replica reads the same jobs table, hence max.', targets: [{ expr: 'max by (state) (leadforge_scraper_jobs_open)', legend: '{{state}}' }] },
  { title: 'Scraper results waiting for the leads service', unit: 'short', description: 'Consumer lag on scraper.result: time to first lead grows with it.', targets: [{ expr: 'sum by (group) (leadforge_bus_consumer_lag{topic="scraper.result"})', legend: '{{group}}' }] },
  { title: 'Time to first lead (p50 / p95)', unit: 's', description: 'From a search starting to its first lead being stored, once per search.', targets: [0.5, 0.95].map((q) => ({ expr: `histogram_quantile(${q}, sum by (le) (rate(leadforge_leads_time_to_first_lead_seconds_bucket[$__rate_interval])))`, legend: `p${q * 100}` })) },
  { title: 'Result event delay (p95)', unit: 's', description: 'From a scraper result being published to the leads service handling it: the pipeline part of time to first lead.', targets: [{ expr: 'histogram_quantile(0.95, sum by (le) (rate(leadforge_event_handle_delay_seconds_bucket{service="leads"}[$__rate_interval])))', legend: 'p95' }] },
  { title: 'Synchronous lead generation duration (p50 / p95)', unit: 's', description: 'POST /api/generate-leads waits for the search to finish.', targets: [0.5, 0.95].map((q) => ({ expr: `histogram_quantile(${q}, sum by (le) (rate(${HTTP}_bucket{service="leads", route="/api/generate-leads"}[$__rate_interval])))`, legend: `p${q * 100}` })) },
]);

export const proxyQuota = dashboard('leadforge-proxy-quota', 'Leadforge / Proxy quota', 'The shared outbound quota of the scraper and its traffic.', [
  { title: 'Quota remaining', unit: 'short', kind: 'stat', width: 6, description: 'Proxied requests left in the shared quota.', targets: [{ expr: 'max(leadforge_scraper_proxy_quota_remaining)', legend: 'remaining' }] },
  { title: 'Quota remaining (% of limit)', unit: 'percentunit', kind: 'stat', width: 6, description: 'What is left of the quota an admin set; the alert fires under 10%.', targets: [{ expr: 'max(leadforge_scraper_proxy_quota_remaining) / max(leadforge_scraper_proxy_quota_limit)', legend: 'remaining' }] },
  { title: 'Requests per second (all)', unit: 'reqps', kind: 'stat', width: 6, description: 'Outbound requests of every scraper replica.', targets: [{ expr: 'sum(rate(leadforge_scraper_outbound_requests_total[$__rate_interval]))', legend: 'req/s' }] },
  { title: 'Failure share', unit: 'percentunit', kind: 'stat', width: 6, description: 'Outbound requests that failed.', targets: [{ expr: '(sum(rate(leadforge_scraper_outbound_requests_total{outcome!="success"}[$__rate_interval])) or vector(0)) / sum(rate(leadforge_scraper_outbound_requests_total[$__rate_interval]))', legend: 'failed' }] },
  { title: 'Quota remaining over time', unit: 'short', description: 'As each replica last saw it, under the limit an admin set.', targets: [{ expr: 'leadforge_scraper_proxy_quota_remaining', legend: '{{pod}}' }, { expr: 'max(leadforge_scraper_proxy_quota_limit)', legend: 'limit' }] },
  { title: 'Requests by outcome and route', unit: 'reqps', description: 'route: proxy (Decodo) or direct.', targets: [{ expr: 'sum by (outcome, route) (rate(leadforge_scraper_outbound_requests_total[$__rate_interval]))', legend: '{{route}} {{outcome}}' }] },
  { title: 'Latency p50 / p95 by route', unit: 's', description: 'From sending a request to the end of its response.', targets: [0.5, 0.95].map((q) => ({ expr: `histogram_quantile(${q}, sum by (route, le) (rate(leadforge_scraper_outbound_duration_seconds_bucket[$__rate_interval])))`, legend: `{{route}} p${q * 100}` })) },
  { title: 'Traffic received', unit: 'Bps', description: 'Response bytes by route (the proxy plan bills traffic).', targets: [{ expr: 'sum by (route) (rate(leadforge_scraper_outbound_response_bytes_total[$__rate_interval]))', legend: '{{route}}' }] },
  { title: 'Top domains', unit: 'short', kind: 'bargauge', description: 'The 10 most requested domains since the last usage reset, as the admin panel\'s Proxy Stats tab lists them.', targets: [{ expr: 'sort_desc(max by (rank, domain) (leadforge_scraper_top_domain_requests))', legend: '{{rank}}. {{domain}}', instant: true }] },
  { title: 'Provider requests by source', unit: 'reqps', description: 'Searches\' provider requests within their budget (nominatim: geocoding; osm, google, decodo), and the searches each source failed, as the admin panel\'s Places sources table counts them.', targets: [{ expr: 'sum by (source) (rate(leadforge_scraper_provider_requests_total[$__rate_interval]))', legend: '{{source}}' }, { expr: 'sum by (source) (rate(leadforge_scraper_provider_errors_total[$__rate_interval]))', legend: '{{source}} failed' }] },
]);

export const money = dashboard('leadforge-money', 'Leadforge / Money', 'Purchases, revenue, and credits in and out of the ledger.', [
  { title: 'Revenue (24 h)', unit: 'currencyUSD', kind: 'stat', width: 8, description: 'Captured revenue in the last 24 hours.', targets: [{ expr: 'sum(increase(leadforge_billing_revenue_cents_total[24h])) / 100', legend: 'USD' }] },
  { title: 'Purchases completed (24 h)', unit: 'short', kind: 'stat', width: 8, description: 'Completed purchases in the last 24 hours.', targets: [{ expr: 'sum(increase(leadforge_billing_purchases_total{outcome="completed"}[24h]))', legend: 'purchases' }] },
  { title: 'Refunds (7 d)', unit: 'short', kind: 'stat', width: 8, description: 'Refunded purchases in the last 7 days.', targets: [{ expr: 'sum(increase(leadforge_billing_purchases_total{outcome="refunded"}[7d])) or vector(0)', legend: 'refunds' }] },
  { title: 'Purchases by kind and outcome', unit: 'short', description: 'Per hour.', targets: [{ expr: 'sum by (kind, outcome) (increase(leadforge_billing_purchases_total[1h]))', legend: '{{kind}} {{outcome}}' }] },
  { title: 'Revenue per hour', unit: 'currencyUSD', description: 'By provider mode (live, sandbox, test).', targets: [{ expr: 'sum by (mode) (increase(leadforge_billing_revenue_cents_total[1h])) / 100', legend: '{{mode}}' }] },
  { title: 'Credits granted per hour, by reason', unit: 'short', description: 'signup, purchase, promo, admin, generation_refund.', targets: [{ expr: 'sum by (reason) (increase(leadforge_billing_credits_total{direction="in"}[1h]))', legend: '{{reason}}' }] },
  { title: 'Credits spent per hour, by reason', unit: 'short', description: 'generation, refund, admin.', targets: [{ expr: 'sum by (reason) (increase(leadforge_billing_credits_total{direction="out"}[1h]))', legend: '{{reason}}' }] },
  { title: 'Credit reservations by outcome', unit: 'short', description: 'held, insufficient (HTTP 402), settled, released; per hour.', targets: [{ expr: 'sum by (outcome) (increase(leadforge_billing_reservations_total[1h]))', legend: '{{outcome}}' }] },
  { title: 'PayPal calls by operation and outcome', unit: 'short', description: 'Per hour: retries, unavailable and refused calls show provider trouble.', targets: [{ expr: 'sum by (operation, outcome) (increase(leadforge_billing_paypal_calls_total[1h]))', legend: '{{operation}} {{outcome}}' }] },
]);

export const bus = dashboard('leadforge-bus', 'Leadforge / Event bus', 'Outbox, Kafka consumers and dead letters.', [
  { title: 'Outbox backlog', unit: 'short', description: 'Events written but not yet published, per service, counted at each scrape.', targets: [{ expr: 'sum by (service) (leadforge_work_queue_depth{queue="outbox"})', legend: '{{service}}' }] },
  { title: 'Consumer lag', unit: 'short', description: 'Events not yet handled, per consumer group and topic.', targets: [{ expr: 'sum by (group, topic) (leadforge_bus_consumer_lag)', legend: '{{group}} {{topic}}' }] },
  { title: 'Events published per second', unit: 'short', description: 'By service and topic.', targets: [{ expr: 'sum by (service, topic) (rate(leadforge_events_published_total[$__rate_interval]))', legend: '{{service}} {{topic}}' }] },
  { title: 'Events handled per second, by outcome', unit: 'short', description: 'By consumer group and outcome.', targets: [{ expr: 'sum by (group, outcome) (rate(leadforge_events_handled_total[$__rate_interval]))', legend: '{{group}} {{outcome}}' }] },
  { title: 'Dead letters (1 h)', unit: 'short', description: 'Events parked after repeated failures; each needs a look.', targets: [{ expr: 'sum by (service, group) (increase(leadforge_dead_letters_total[1h])) or on (service, group) 0 * sum by (service, group) (leadforge_events_handled_total)', legend: '{{service}} {{group}}' }] },
  { title: 'Handling delay p95', unit: 's', description: 'From an event occurring to its consumer handling it.', targets: [{ expr: 'histogram_quantile(0.95, sum by (service, group, le) (rate(leadforge_event_handle_delay_seconds_bucket[$__rate_interval])))', legend: '{{service}} {{group}}' }] },
]);

export const DASHBOARDS: Record<string, Json> = {
  'golden-signals': goldenSignals,
  'lead-pipeline': leadPipeline,
  'proxy-quota': proxyQuota,
  money,
  bus,
};

/**
 * The Envoy bootstrap for the cluster gateway, derived from the route table in packages/contracts:
 * one route per (method, path) to the owning service's cluster; `/internal/*` answered 404 here and
 * never routed; JWTs checked at the edge against auth's JWKS; admin routes allowed only when the
 * token's `role` claim is `admin`; API keys (`X-API-Key`, on the routes the table opens to them)
 * checked with auth before the request goes on; edge rate limits; request size limits; JSON access logs; the
 * same security headers as the local gateway. Services check tokens and roles again themselves.
 */
import { isIP } from 'node:net';
import { API_KEY_HEADER, ROUTES, SERVICES, type RouteEntry, type ServiceName } from '@leadforge/contracts';
import { REQUEST_BODY_LIMIT_BYTES } from '@leadforge/kit/service';
import { GATEWAY_PROOF_HEADER } from '@leadforge/kit/http';
import { CSP_DIRECTIVES } from './securityHeaders.ts';

/** Every workload listens on this port in the cluster (the chart's Services expose it too). */
export const UPSTREAM_PORT = 8080;
export const LISTENER_PORT = 8080;
/** Kubelet probes this port; the health_check filter fails it as soon as Envoy starts draining. */
export const HEALTH_PORT = 8081;
export const ADMIN_PORT = 9901;
export const WEB_CLUSTER = 'web';
export const JWT_ISSUER = 'leadforge-auth';
/**
 * The services' own body limit: a larger body is refused here, never streamed to a service that
 * would close the connection on it mid-request.
 */
export const MAX_REQUEST_BYTES = REQUEST_BODY_LIMIT_BYTES;

/**
 * Edge rate limits: a token bucket per gateway replica for each route, a flood guard in front of the
 * services' own per-IP and per-account limits (Redis-backed, see the kit's rateLimited).
 */
export const EDGE_RATE_LIMITS: Record<string, { burst: number; perSecond: number }> = {
  'POST /api/auth/login': { burst: 60, perSecond: 20 },
  'POST /api/auth/register': { burst: 20, perSecond: 5 },
  'POST /api/contact': { burst: 10, perSecond: 2 },
  'POST /api/generate-leads': { burst: 20, perSecond: 5 },
  'POST /api/lead-searches': { burst: 20, perSecond: 5 },
};

/** Upstream timeouts: ordinary calls, and long lead searches and SSE streams (no overall limit, idle cap). */
export const TIMEOUTS = { route: '30s', streamingIdle: '900s', connect: '2s', streamIdle: '300s', requestHeaders: '10s' };

/**
 * Retries at the edge, for the moments an upstream goes away under a request (a pod replaced by a
 * rolling upgrade closes the connection Envoy was about to use): any request whose connection failed
 * or was refused before it was sent, and a read (GET, HEAD) also when the connection was reset before
 * a response began. A write that may have reached the service is never sent twice.
 */
export function retryPolicy(method: string): Json {
  const idempotent = method === 'GET' || method === 'HEAD';
  return {
    retry_on: idempotent ? 'connect-failure,refused-stream,reset' : 'connect-failure,refused-stream',
    num_retries: 2,
    retry_back_off: { base_interval: '0.1s', max_interval: '1s' },
  };
}

type Json = Record<string, unknown>;

export interface Upstream { host: string; port: number }

export interface EnvoyConfigOptions {
  table?: readonly RouteEntry[];
  services?: readonly ServiceName[];
  /**
   * Endpoints per cluster (a service name or `web`). A cluster not named here reaches `<name>:8080`
   * through DNS, as the chart's Services are found in Kubernetes; several endpoints are balanced
   * round robin (the scraper runs as several replicas on one machine).
   */
  upstreams?: Partial<Record<string, readonly Upstream[]>>;
  /** The public listener; the health listener shares its address. */
  listen?: { address: string; port: number };
  healthPort?: number;
  adminPort?: number;
  /** Request spans sent over OTLP/HTTP to this collector (`/v1/traces`), as `leadforge-gateway`. */
  tracing?: { collector: Upstream };
  /**
   * The internal token, sent upstream as `x-leadforge-gateway` so services on loopback believe the
   * X-Forwarded-For Envoy sets (in a cluster they trust the gateway pods' addresses instead).
   */
  gatewayProof?: string;
}

const TRACING_CLUSTER = 'otel_collector';

const JWT_FILTER = 'envoy.filters.http.jwt_authn';
const EXT_AUTHZ_FILTER = 'envoy.filters.http.ext_authz';
/** Auth's key check for the edge: Envoy appends the request's path; the answer is 200 or 401. */
export const API_KEY_CHECK_PATH = '/internal/api-keys/check';
const RBAC_FILTER = 'envoy.filters.http.rbac';
const RATE_LIMIT_FILTER = 'envoy.filters.http.local_ratelimit';
const JWT_PAYLOAD_KEY = 'jwt_payload';

const type = (name: string) => `type.googleapis.com/${name}`;

export const routeName = (route: Pick<RouteEntry, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** `/api/lead-searches/:id` -> a regex matching one non-empty segment per parameter. */
export function pathMatcher(path: string): Json {
  if (!path.includes('/:')) return { path };
  const pattern = path.split('/').map((segment) => segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('/');
  return { safe_regex: { regex: `^${pattern}$` } };
}

function methodMatcher(method: string): Json {
  // HEAD is answered by GET routes, as in the local gateway.
  const stringMatch = method === 'GET' ? { safe_regex: { regex: '^(GET|HEAD)$' } } : { exact: method };
  return { name: ':method', string_match: stringMatch };
}

const jsonBody = (detail: string, code: string) => ({ json_format: { detail, code } });

/** A route answered by Envoy itself with a `{detail}` body (typed as JSON: Envoy's default would be text/plain). */
function directJson(status: number, detail: string, code: string): Json {
  return {
    direct_response: { status, body: { inline_string: JSON.stringify({ detail, code }) } },
    response_headers_to_add: [{ header: { key: 'content-type', value: 'application/json' }, append_action: 'OVERWRITE_IF_EXISTS_OR_ADD' }],
  };
}

function adminOnly(): Json {
  return {
    '@type': type('envoy.extensions.filters.http.rbac.v3.RBACPerRoute'),
    rbac: {
      rules: {
        action: 'ALLOW',
        policies: {
          'admin-role-claim': {
            permissions: [{ any: true }],
            principals: [{
              metadata: {
                filter: JWT_FILTER,
                path: [{ key: JWT_PAYLOAD_KEY }, { key: 'role' }],
                value: { string_match: { exact: 'admin' } },
              },
            }],
          },
        },
      },
    },
  };
}

function rateLimit(name: string, limit: { burst: number; perSecond: number }): Json {
  const always = (key: string) => ({ runtime_key: key, default_value: { numerator: 100, denominator: 'HUNDRED' } });
  return {
    '@type': type('envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit'),
    stat_prefix: `edge_${name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`,
    token_bucket: { max_tokens: limit.burst, tokens_per_fill: limit.perSecond, fill_interval: '1s' },
    filter_enabled: always('edge_rate_limit_enabled'),
    filter_enforced: always('edge_rate_limit_enforced'),
  };
}

/** A request that presents a key instead of a token (a token, when both come, wins, as in the services). */
const keyedRequest: Json[] = [
  { name: API_KEY_HEADER, present_match: true },
  { name: 'authorization', present_match: true, invert_match: true },
];

/**
 * The keyed twin of a route the table opens to API keys: no JWT required, the key checked with auth
 * (ext_authz) on every request, so a revoked or expired key is refused here at once.
 */
function apiKeyRoute(route: RouteEntry): Json {
  const plain = apiRoute(route);
  return {
    ...plain,
    name: `${plain.name} (API key)`,
    match: { ...plain.match, headers: [...plain.match.headers, ...keyedRequest] },
    typed_per_filter_config: {
      ...plain.typed_per_filter_config,
      [JWT_FILTER]: { '@type': type('envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig'), disabled: true },
      [EXT_AUTHZ_FILTER]: {
        '@type': type('envoy.config.route.v3.FilterConfig'),
        config: { '@type': type('envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute'), check_settings: {} },
      },
    },
  };
}

function apiRoute(route: RouteEntry): Json & { match: { headers: Json[] }; typed_per_filter_config: Json; name: string } {
  const name = routeName(route);
  const perFilter: Json = {
    [JWT_FILTER]: route.access === 'public'
      ? { '@type': type('envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig'), disabled: true }
      : { '@type': type('envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig'), requirement_name: 'signed_in' },
  };
  if (route.access === 'admin') perFilter[RBAC_FILTER] = adminOnly();
  const limit = EDGE_RATE_LIMITS[name];
  if (limit) perFilter[RATE_LIMIT_FILTER] = rateLimit(name, limit);
  return {
    name,
    match: { ...pathMatcher(route.path), headers: [methodMatcher(route.method)] },
    route: {
      cluster: route.service,
      ...(route.streaming ? { timeout: '0s', idle_timeout: TIMEOUTS.streamingIdle } : { timeout: TIMEOUTS.route }),
      retry_policy: retryPolicy(route.method),
    },
    typed_per_filter_config: perFilter,
  };
}

/** Routes in match order: API routes, 405 for a known path with another method, 404s, then the SPA. */
export function routes(table: readonly RouteEntry[] = ROUTES): Json[] {
  const methodNotAllowed = [...new Set(table.map((r) => r.path))].map((path) => ({
    name: `405 ${path}`,
    match: pathMatcher(path),
    ...directJson(405, `This method is not allowed on ${path}`, 'method_not_allowed'),
  }));
  const notFound = (match: { prefix: string } | { path: string }) => ({
    name: `404 ${'prefix' in match ? `${match.prefix}*` : match.path}`,
    match,
    ...directJson(404, 'Not found', 'not_found'),
  });
  return [
    ...table.filter((route) => route.apiKey && route.access === 'user').map(apiKeyRoute),
    ...table.map(apiRoute),
    ...methodNotAllowed,
    notFound({ prefix: '/api/' }),
    notFound({ path: '/api' }),
    // Service-to-service routes and service internals are never reachable from outside.
    notFound({ prefix: '/internal' }),
    notFound({ prefix: '/.well-known/' }),
    notFound({ prefix: '/metrics' }),
    { name: 'web app', match: { prefix: '/' }, route: { cluster: WEB_CLUSTER, timeout: TIMEOUTS.route, retry_policy: retryPolicy('GET') } },
  ];
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The local gateway's helmet headers, for responses that do not carry them already. */
export function securityHeaders(): Json[] {
  const csp = Object.entries(CSP_DIRECTIVES).map(([key, values]) => `${kebab(key)} ${values.join(' ')}`).join('; ');
  const headers: Record<string, string> = {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
  };
  return Object.entries(headers).map(([key, value]) => ({ header: { key, value }, append_action: 'ADD_IF_ABSENT' }));
}

/** Envoy's own replies (auth, RBAC, limits, upstream failures) in the product's `{detail}` shape. */
function localReplies(): Json {
  const status = (code: number) => ({ status_code_filter: { comparison: { op: 'EQ', value: { default_value: code, runtime_key: `local_reply_${code}` } } } });
  const mapper = (filter: Json, code: number, detail: string, name: string) => ({ filter, status_code: code, body_format_override: jsonBody(detail, name) });
  return {
    mappers: [
      // ext_authz's refusal (response flag UAEX) is auth's answer to a bad key; any other 401 to a
      // keyed request comes from a route that wants a session.
      mapper({ and_filter: { filters: [status(401), { response_flag_filter: { flags: ['UAEX'] } }] } }, 401, 'This API key is invalid, revoked or expired', 'invalid_api_key'),
      mapper({ and_filter: { filters: [status(401), { header_filter: { header: { name: API_KEY_HEADER, present_match: true } } }, { header_filter: { header: { name: 'authorization', present_match: false } } }] } },
        401, 'API keys are not accepted on this route; it needs a signed-in session', 'api_key_not_accepted'),
      mapper({ and_filter: { filters: [status(401), { header_filter: { header: { name: 'authorization', present_match: false } } }] } }, 401, 'Authentication required', 'no_token'),
      mapper(status(401), 401, 'Your session is invalid or has expired; please log in again', 'invalid_token'),
      mapper(status(400), 400, 'The request is malformed (its path or headers cannot be read)', 'bad_request'),
      mapper(status(403), 403, 'Admin privileges required', 'admin_only'),
      mapper(status(414), 414, 'The request URL is too long', 'uri_too_long'),
      mapper(status(431), 431, 'The request headers are too large', 'headers_too_large'),
      mapper(status(413), 413, `The request body is larger than ${MAX_REQUEST_BYTES / 1024} KiB`, 'payload_too_large'),
      mapper(status(429), 429, 'Too many requests; please wait a moment and try again', 'rate_limited'),
      mapper(status(502), 502, 'The service did not answer; please try again', 'bad_gateway'),
      mapper(status(503), 503, 'The service is not available right now; please try again shortly', 'service_unavailable'),
      mapper(status(504), 504, 'The service took too long to answer; please try again', 'gateway_timeout'),
    ],
  };
}

function accessLog(): Json[] {
  return [{
    name: 'envoy.access_loggers.stdout',
    typed_config: {
      '@type': type('envoy.extensions.access_loggers.stream.v3.StdoutAccessLog'),
      log_format: {
        json_format: {
          time: '%START_TIME%',
          request_id: '%REQ(X-REQUEST-ID)%',
          method: '%REQ(:METHOD)%',
          path: '%REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%',
          route: '%ROUTE_NAME%',
          status: '%RESPONSE_CODE%',
          flags: '%RESPONSE_FLAGS%',
          details: '%RESPONSE_CODE_DETAILS%',
          duration_ms: '%DURATION%',
          upstream: '%UPSTREAM_CLUSTER%',
          upstream_ms: '%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%',
          bytes_in: '%BYTES_RECEIVED%',
          bytes_out: '%BYTES_SENT%',
          client: '%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%',
          user_agent: '%REQ(USER-AGENT)%',
        },
      },
    },
  }];
}

function httpFilters(authCluster: ServiceName, auth: Upstream): Json[] {
  return [
    {
      name: RATE_LIMIT_FILTER,
      typed_config: { '@type': type('envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit'), stat_prefix: 'edge' },
    },
    {
      // Off unless a route (an API key route) turns it on.
      name: EXT_AUTHZ_FILTER,
      disabled: true,
      typed_config: {
        '@type': type('envoy.extensions.filters.http.ext_authz.v3.ExtAuthz'),
        transport_api_version: 'V3',
        http_service: {
          server_uri: { uri: `http://${auth.host}:${auth.port}`, cluster: authCluster, timeout: '2s' },
          path_prefix: API_KEY_CHECK_PATH,
        },
        // Auth sees the key and nothing else of the request.
        allowed_headers: { patterns: [{ exact: API_KEY_HEADER }] },
        // Auth away: no keyed request goes through unchecked.
        failure_mode_allow: false,
        status_on_error: { code: 'ServiceUnavailable' },
      },
    },
    {
      name: JWT_FILTER,
      typed_config: {
        '@type': type('envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication'),
        providers: {
          leadforge: {
            // The audience is the services' check: Envoy answers a wrong one 403, which would read as
            // "admin privileges required"; only auth's key signs tokens, and it always sets `aud`.
            issuer: JWT_ISSUER,
            remote_jwks: {
              http_uri: { uri: `http://${auth.host}:${auth.port}/.well-known/jwks.json`, cluster: authCluster, timeout: '2s' },
              cache_duration: '600s',
              async_fetch: {},
              retry_policy: { num_retries: 3, retry_back_off: { base_interval: '0.5s', max_interval: '5s' } },
            },
            // Services verify the token again, so it passes through.
            forward: true,
            payload_in_metadata: JWT_PAYLOAD_KEY,
          },
        },
        requirement_map: { signed_in: { provider_name: 'leadforge' } },
      },
    },
    // No rules here: RBAC applies only where a route carries its own policy (the admin routes).
    { name: RBAC_FILTER, typed_config: { '@type': type('envoy.extensions.filters.http.rbac.v3.RBAC') } },
    { name: 'envoy.filters.http.buffer', typed_config: { '@type': type('envoy.extensions.filters.http.buffer.v3.Buffer'), max_request_bytes: MAX_REQUEST_BYTES } },
    { name: 'envoy.filters.http.router', typed_config: { '@type': type('envoy.extensions.filters.http.router.v3.Router') } },
  ];
}

const inCluster = (name: string): Upstream[] => [{ host: name, port: UPSTREAM_PORT }];

function cluster(name: string, upstreams: readonly Upstream[]): Json {
  // Addresses need no resolver (STATIC); host names are resolved, every address used (STRICT_DNS).
  const resolved = upstreams.every((u) => isIP(u.host) !== 0);
  return {
    name,
    type: resolved ? 'STATIC' : 'STRICT_DNS',
    connect_timeout: TIMEOUTS.connect,
    ...(resolved ? {} : { dns_lookup_family: 'V4_PREFERRED' }),
    lb_policy: 'ROUND_ROBIN',
    // Reconnect now and then so new replicas behind the Service get their share.
    typed_extension_protocol_options: {
      'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
        '@type': type('envoy.extensions.upstreams.http.v3.HttpProtocolOptions'),
        common_http_protocol_options: { idle_timeout: '60s', max_connection_duration: '300s' },
        explicit_http_config: { http_protocol_options: {} },
      },
    },
    load_assignment: {
      cluster_name: name,
      endpoints: [{ lb_endpoints: upstreams.map((u) => ({ endpoint: { address: { socket_address: { address: u.host, port_value: u.port } } } })) }],
    },
  };
}

function listener(name: string, address: string, port: number, manager: Json): Json {
  return {
    name,
    address: { socket_address: { address, port_value: port } },
    per_connection_buffer_limit_bytes: 64 * 1024,
    filter_chains: [{ filters: [{ name: 'envoy.filters.network.http_connection_manager', typed_config: { '@type': type('envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager'), ...manager } }] }],
  };
}

/** The OpenTelemetry tracer: a span per request, its traceparent passed on to the services. */
function tracing(collector: Upstream): Json {
  return {
    provider: {
      name: 'envoy.tracers.opentelemetry',
      typed_config: {
        '@type': type('envoy.config.trace.v3.OpenTelemetryConfig'),
        http_service: {
          http_uri: { uri: `http://${collector.host}:${collector.port}/v1/traces`, cluster: TRACING_CLUSTER, timeout: '2s' },
        },
        service_name: 'leadforge-gateway',
      },
    },
  };
}

/**
 * With no options, the cluster's gateway (gateway/envoy/envoy.yaml); `npm run start:distributed` and
 * the edge tests pass loopback upstreams and ports to run the same edge on one machine.
 */
export function envoyConfig(options: EnvoyConfigOptions = {}): Json {
  const { table = ROUTES, services = SERVICES, listen = { address: '0.0.0.0', port: LISTENER_PORT } } = options;
  const upstreams = (name: string): readonly Upstream[] => {
    const given = options.upstreams?.[name];
    if (given && given.length === 0) throw new Error(`envoyConfig: the ${name} cluster was given no endpoints`);
    return given ?? inCluster(name);
  };
  const unknown = Object.keys(options.upstreams ?? {}).filter((name) => name !== WEB_CLUSTER && !services.includes(name as ServiceName));
  if (unknown.length) throw new Error(`envoyConfig: no cluster named ${unknown.join(', ')}`);
  const main = listener('public', listen.address, listen.port, {
    stat_prefix: 'public',
    codec_type: 'AUTO',
    server_name: 'leadforge',
    use_remote_address: true,
    xff_num_trusted_hops: 0,
    generate_request_id: true,
    normalize_path: true,
    merge_slashes: true,
    path_with_escaped_slashes_action: 'REJECT_REQUEST',
    max_request_headers_kb: 60,
    stream_idle_timeout: TIMEOUTS.streamIdle,
    request_headers_timeout: TIMEOUTS.requestHeaders,
    common_http_protocol_options: { idle_timeout: '300s', headers_with_underscores_action: 'REJECT_REQUEST' },
    access_log: accessLog(),
    local_reply_config: localReplies(),
    route_config: {
      name: 'leadforge',
      response_headers_to_add: securityHeaders(),
      // Only Envoy may prove it is the gateway: a client's copy of the header is replaced or removed.
      ...(options.gatewayProof
        ? { request_headers_to_add: [{ header: { key: GATEWAY_PROOF_HEADER, value: options.gatewayProof }, append_action: 'OVERWRITE_IF_EXISTS_OR_ADD' }] }
        : { request_headers_to_remove: [GATEWAY_PROOF_HEADER] }),
      virtual_hosts: [{ name: 'leadforge', domains: ['*'], routes: routes(table) }],
    },
    http_filters: httpFilters('auth', upstreams('auth')[0]),
    ...(options.tracing ? { tracing: tracing(options.tracing.collector) } : {}),
  });
  const health = listener('health', listen.address, options.healthPort ?? HEALTH_PORT, {
    stat_prefix: 'health',
    route_config: { name: 'health', virtual_hosts: [{ name: 'health', domains: ['*'], routes: [{ match: { prefix: '/' }, direct_response: { status: 404 } }] }] },
    http_filters: [
      {
        name: 'envoy.filters.http.health_check',
        typed_config: {
          '@type': type('envoy.extensions.filters.http.health_check.v3.HealthCheck'),
          pass_through_mode: false,
          headers: [{ name: ':path', string_match: { exact: '/ready' } }],
        },
      },
      { name: 'envoy.filters.http.router', typed_config: { '@type': type('envoy.extensions.filters.http.router.v3.Router') } },
    ],
  });
  return {
    node: { id: 'leadforge-gateway', cluster: 'leadforge-gateway' },
    admin: { address: { socket_address: { address: '127.0.0.1', port_value: options.adminPort ?? ADMIN_PORT } } },
    static_resources: {
      listeners: [main, health],
      clusters: [
        ...[...services, WEB_CLUSTER].map((name) => cluster(name, upstreams(name))),
        ...(options.tracing ? [cluster(TRACING_CLUSTER, [options.tracing.collector])] : []),
      ],
    },
  };
}

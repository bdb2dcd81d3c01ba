import { ROUTES, type Access, type RouteEntry, type ServiceName } from '@leadforge/contracts';

/**
 * The hostile-input fuzzer: walks the route table and sends every route the classes of input that
 * once made the product answer 500 or answer without `detail` (bad escapes, NUL, lone surrogates,
 * huge numbers, wrong types, null, oversized headers and bodies, deep nesting, `__proto__` keys), as
 * anonymous, user and admin. It takes only a base URL and two tokens, so it runs against `npm start`
 * and the distributed mode alike.
 *
 * Samples are valid bodies with harmless targets (unknown ids, loopback URLs); only mutated copies
 * are ever sent, one hostile field at a time, so no request is meant to succeed.
 */

export interface FuzzTokens {
  user: string;
  admin: string;
}

export interface FuzzFailure {
  request: string;
  identity: Identity;
  problem: string;
  status?: number;
  body?: string;
}

export interface FuzzReport {
  requests: number;
  /** How many answers had each status (a run where everything is 401 fuzzed nothing). */
  statuses: Record<number, number>;
  failures: FuzzFailure[];
}

type Identity = 'anonymous' | 'user' | 'admin' | 'forged';

interface FuzzCase {
  name: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const NIL_UUID = '00000000-0000-4000-8000-000000000000';

/** A valid body per route, with harmless targets; the fuzzer sends only mutations of it. */
const SAMPLE_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/auth/register': { name: 'Fuzz Tester', email: 'fuzz-register@example.com', password: 'fuzz-password-1' },
  'POST /api/auth/login': { email: 'fuzz-login@example.com', password: 'fuzz-password-1' },
  'POST /api/payments/create': { plan_id: 'starter' },
  'POST /api/payments/execute': { payment_id: 'FUZZ-ORDER-1' },
  'POST /api/payments/create-order': { plan: 'cbc500_promo', amount: 19 },
  'POST /api/payments/complete-payment': { order_id: 'FUZZ-ORDER-1', plan: 'cbc500_promo', promo_code: 'CBC500' },
  'POST /api/payments/webhook': { id: 'WH-FUZZ-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'CAPTURE-FUZZ', custom_id: NIL_UUID, amount: { value: '19.00', currency_code: 'USD' } } },
  'POST /api/admin/paypal-config': { sandbox_mode: true },
  'POST /api/generate-leads': { industry: 'Dentists', location: 'Austin', quantity: 5 },
  'POST /api/lead-searches': { industry: 'Dentists', location: 'Austin', quantity: 5 },
  'POST /api/scrape': { url: 'http://127.0.0.1:9/' },
  'POST /api/admin/decodo-quota': { remaining_requests: 5000 },
  'POST /api/affiliate/apply': { name: 'Fuzz Tester', email: 'fuzz-affiliate@example.com', website: 'https://example.com', message: 'hello' },
  'POST /api/affiliate/referral-visits': { code: 'FUZZCODE' },
  'POST /api/admin/affiliate-payouts': { period: '2001-01' },
  'POST /api/contact': { name: 'Fuzz Tester', email: 'fuzz-contact@example.com', message: 'hello', recaptcha_token: 'fuzz' },
  'POST /api/opt-out': { email: 'fuzz-opt-out@example.com', phone: '+15550100000', website: 'fuzz-opt-out.example', reason: 'hello' },
  'POST /api/admin/update-credits': { user_id: NIL_UUID, credits_change: 5 },
  'POST /api/admin/user-action': { user_id: NIL_UUID, action: 'deactivate' },
};

const NUL = 'a\u0000b';
const LONE_SURROGATE = '\ud800x';

/** Replacements for one field, by the type of its sample value; every one is invalid there. */
function hostileValuesFor(sample: unknown): [string, unknown][] {
  const everywhere: [string, unknown][] = [
    ['NUL', NUL], ['lone surrogate', LONE_SURROGATE], ['null', null], ['object', { nested: NUL }], ['__proto__ object', { ['__proto__']: { polluted: true } }],
  ];
  if (typeof sample === 'number') {
    return [...everywhere, ['numeric text', String(sample)], ['boolean', true], ['negative', -1], ['fraction', 1.5], ['2^53', 2 ** 53], ['array', [sample]]];
  }
  if (typeof sample === 'boolean') return [...everywhere, ['text', String(sample)], ['number', 1], ['array', [sample]]];
  if (typeof sample === 'object' && sample !== null) return [...everywhere, ['text', 'x'], ['number', 0], ['array', [sample]]];
  return [...everywhere, ['number', 0], ['boolean', true], ['array', [sample]], ['10,001 characters', 'x'.repeat(10_001)]];
}

/** JSON text whose hostility JSON.stringify cannot express (1e309 parses to Infinity). */
function withRaw(body: Record<string, unknown>, field: string, raw: string): string {
  const marker = '"__FUZZ_RAW__"';
  return JSON.stringify({ ...body, [field]: '__FUZZ_RAW__' }).replace(marker, raw);
}

function bodyCases(route: RouteEntry, path: string): FuzzCase[] {
  const json = { 'content-type': 'application/json' };
  const whole: FuzzCase[] = [
    { name: 'invalid JSON', path, body: '{"a":', headers: json },
    { name: 'empty JSON body', path, body: '', headers: json },
    { name: 'null body', path, body: 'null', headers: json },
    { name: 'array body', path, body: '[]', headers: json },
    { name: 'number body 1e309', path, body: '1e309', headers: json },
    { name: 'NUL body', path, body: JSON.stringify(NUL), headers: json },
    { name: '__proto__ key', path, body: '{"__proto__":{"polluted":true}}', headers: json },
    { name: 'constructor.prototype key', path, body: '{"constructor":{"prototype":{"polluted":true}}}', headers: json },
    { name: 'nested 10,000 deep', path, body: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, headers: json },
    { name: 'arrays nested 10,000 deep', path, body: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, headers: json },
    { name: '300 KB body', path, body: JSON.stringify({ filler: 'x'.repeat(300 * 1024) }), headers: json },
    { name: '1.5 MB body', path, body: JSON.stringify({ filler: 'x'.repeat(1536 * 1024) }), headers: json },
    { name: 'text/plain body', path, body: 'hello', headers: { 'content-type': 'text/plain' } },
    { name: 'utf-16 charset', path, body: '{}', headers: { 'content-type': 'application/json; charset=utf-16' } },
  ];
  const sample = SAMPLE_BODIES[`${route.method} ${route.path}`];
  if (!sample) return whole;
  const fields: FuzzCase[] = [];
  for (const [field, value] of Object.entries(sample)) {
    for (const [kind, hostile] of hostileValuesFor(value)) {
      fields.push({ name: `${field}: ${kind}`, path, body: JSON.stringify({ ...sample, [field]: hostile }), headers: json });
    }
    fields.push({ name: `${field}: 1e309`, path, body: withRaw(sample, field, '1e309'), headers: json });
    fields.push({ name: `${field}: escaped lone surrogate`, path, body: withRaw(sample, field, '"\\udc00"'), headers: json });
  }
  const { [Object.keys(sample)[0]]: _dropped, ...missingFirst } = sample;
  fields.push({ name: 'first field missing', path, body: JSON.stringify(missingFirst), headers: json });
  fields.push({ name: 'unknown __proto__ field among valid ones', path, body: JSON.stringify(sample).replace(/^\{/, '{"__proto__":{"role":"admin"},'), headers: json });
  return [...whole, ...fields];
}

const QUERY_CASES: [string, string][] = [
  ['bad escape in the query', 'x=%ff'],
  ['truncated escape in the query', 'x=%'],
  ['encoded surrogate in the query', 'search=%ED%A0%80'],
  ['1e309 in every paging parameter', 'page=1e309&page_size=1e309&limit=1e309&users_page=1e309&users_page_size=1e309&contacts_page=1e309&contacts_page_size=1e309'],
  ['-1e309 in paging', 'page=-1e309&limit=-1e309'],
  ['NUL in search terms', 'search=a%00b&q=a%00b&cursor=a%00b&role=a%00b&include=a%00b&status=a%00b&after=a%00b'],
  ['words in paging', 'page=abc&page_size=abc&limit=abc&users_page=abc'],
  ['repeated paging parameters', 'page=1&page=2&limit=1&limit=2&search=a&search=b'],
  ['__proto__ in the query', '__proto__=x&constructor[prototype][polluted]=1&__proto__[polluted]=1'],
  ['long search', `search=${'x'.repeat(6000)}&cursor=${'x'.repeat(6000)}`],
];

const PARAM_CASES: [string, string][] = [
  ['bad escape in a path parameter', '%ff'],
  ['NUL in a path parameter', '%00'],
  ['encoded surrogate in a path parameter', '%ED%A0%80'],
  ['a 500-character path parameter', 'a'.repeat(500)],
  ['1e309 as a path parameter', '1e309'],
  ['__proto__ as a path parameter', '__proto__'],
  ['dot segments in a path parameter', '%2e%2e'],
  ['encoded slashes in a path parameter', '..%2F..%2Finternal%2Fusers'],
];

function casesFor(route: RouteEntry, full: boolean): FuzzCase[] {
  const plainPath = route.path.replace(/:[^/]+/g, NIL_UUID);
  const cases: FuzzCase[] = [
    { name: 'bad escape in the query', path: `${plainPath}?x=%ff` },
    { name: 'NUL in the query', path: `${plainPath}?x=%00` },
    { name: 'oversized header', path: plainPath, headers: { 'x-fuzz': 'x'.repeat(20_000) } },
  ];
  if (!full) return cases;
  cases.push({ name: 'a 10,000-character path', path: `${plainPath}/${'a'.repeat(10_000)}` });
  if (route.path.includes(':')) {
    for (const [name, value] of PARAM_CASES) cases.push({ name, path: route.path.replace(/:[^/]+/, value).replace(/:[^/]+/g, NIL_UUID) });
  }
  if (route.method === 'GET' || route.method === 'DELETE') {
    for (const [name, query] of QUERY_CASES) cases.push({ name, path: `${plainPath}?${query}` });
  } else {
    cases.push(...bodyCases(route, plainPath));
  }
  return cases;
}

/** The identities a route is fuzzed as: in full as those allowed to call it, briefly as the others. */
function identitiesFor(access: Access): { identity: Identity; full: boolean }[] {
  const allowed: Identity[] = access === 'public' ? ['anonymous', 'user', 'admin'] : access === 'user' ? ['user', 'admin'] : ['admin'];
  return (['anonymous', 'forged', 'user', 'admin'] as Identity[]).map((identity) => ({ identity, full: allowed.includes(identity) }));
}

/** A cheap read of each service, to tell a service that stopped answering from one that refused. */
const LIVENESS: Record<ServiceName, { path: string; identity: Identity }> = {
  auth: { path: '/api/auth/me', identity: 'user' },
  billing: { path: '/api/payments/config', identity: 'anonymous' },
  leads: { path: '/api/lead-searches?page_size=1', identity: 'user' },
  scraper: { path: '/api/admin/decodo-usage', identity: 'admin' },
  affiliate: { path: '/api/affiliate/stats', identity: 'user' },
  contact: { path: '/api/contact/config', identity: 'anonymous' },
  admin: { path: '/api/admin/activity-logs?limit=1', identity: 'admin' },
};

const FORGED_TOKEN = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwicm9sZSI6ImFkbWluIn0.';

export async function fuzzRoutes(baseUrl: string, tokens: FuzzTokens, options: { routes?: readonly RouteEntry[]; concurrency?: number; timeoutMs?: number } = {}): Promise<FuzzReport> {
  const base = baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 20_000;
  const failures: FuzzFailure[] = [];
  const statuses: Record<number, number> = {};
  let requests = 0;
  const authorization = (identity: Identity): Record<string, string> =>
    identity === 'user' ? { authorization: `Bearer ${tokens.user}` }
      : identity === 'admin' ? { authorization: `Bearer ${tokens.admin}` }
        : identity === 'forged' ? { authorization: `Bearer ${FORGED_TOKEN}` } : {};

  async function send(method: string, c: FuzzCase, identity: Identity): Promise<void> {
    requests += 1;
    const request = `${method} ${c.path.length > 120 ? `${c.path.slice(0, 120)}...` : c.path} (${c.name})`;
    let res: Response;
    try {
      res = await fetch(`${base}${c.path}`, { method, headers: { ...authorization(identity), ...c.headers }, body: c.body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      failures.push({ request, identity, problem: `no answer: ${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message}` });
      return;
    }
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status < 400) {
      await res.body?.cancel();
      return;
    }
    const text = await res.text().catch(() => '');
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch { /* not JSON: no detail */ }
    if (res.status >= 500) failures.push({ request, identity, problem: 'server error', status: res.status, body: text.slice(0, 300) });
    else if (typeof detail !== 'string' || !detail) failures.push({ request, identity, problem: 'error without detail', status: res.status, body: text.slice(0, 300) });
  }

  async function stillAnswers(service: ServiceName, after: string): Promise<void> {
    const probe = LIVENESS[service];
    try {
      const res = await fetch(`${base}${probe.path}`, { headers: authorization(probe.identity), signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      if (res.status !== 200) failures.push({ request: `GET ${probe.path} after ${after}`, identity: probe.identity, problem: `the ${service} service answers ${res.status}`, status: res.status });
    } catch (err) {
      failures.push({ request: `GET ${probe.path} after ${after}`, identity: probe.identity, problem: `the ${service} service stopped answering: ${(err as Error).message}` });
    }
  }

  for (const route of options.routes ?? ROUTES) {
    const work: (() => Promise<void>)[] = [];
    for (const { identity, full } of identitiesFor(route.access)) {
      for (const c of casesFor(route, full)) work.push(() => send(route.method, c, identity));
    }
    const concurrency = options.concurrency ?? 6;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let next = work.shift(); next; next = work.shift()) await next();
    }));
    await stillAnswers(route.service, `${route.method} ${route.path}`);
  }
  return { requests, statuses, failures };
}

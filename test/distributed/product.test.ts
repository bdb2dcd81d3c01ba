/**
 * The product as `npm run start:distributed` runs it: a process per service (two scraper replicas),
 * PostgreSQL, Redis and Kafka of its own, Envoy at the edge. Every call goes through Envoy; the events
 * between services travel over the real broker. The lead engine's maps source and business websites
 * are the fixture web (websites reached through its forward proxy, as through Decodo's; their
 * *.fixture.test names resolve through a preloaded test hook, as a DNS record would), PayPal is the
 * local stand-in.
 *
 * The same stack, started once (a minute of both cores), is then watched by Prometheus
 * (prometheusWatching.ts), has its processes killed one by one (supervisedCrashes.ts), and is stopped
 * with Ctrl-C and started again on its data.
 *
 * With LEADFORGE_RUNTIME=containers (CI sets it, after `npm run images`) every service, scraper
 * replica, migration and the web server runs from its built image, as the launcher then runs them:
 * the whole file proves the images, not only the sources. supervision.test.ts keeps the process runtime.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingPrerequisites } from '../../stack/src/distributed/prerequisites.ts';
import { containerEngine, imageOf } from '../../stack/src/infrastructure/containers.ts';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { startPaypalStandIn, type PaypalStandIn } from '../../services/billing/test/support/paypalStandIn.ts';
import { readFeed } from '../../services/leads/test/support/feedReader.ts';
import { apiClient, bearer, loopbackAddresses } from '../support/api.ts';
import { fixtureWebEnv, SHORT_KAFKA_SESSIONS, startDistributedStack, stoppedLines, type DistributedStackProcess } from '../support/distributedStack.ts';
import { startOtlpCollector, type OtlpCollector } from '../support/otlpCollector.ts';
import { fuzzRoutes } from '../support/fuzz.ts';
import { processAlive } from '../support/productProcess.ts';
import { describePrometheusWatching } from './prometheusWatching.ts';
import { describeSupervision } from './supervisedCrashes.ts';
import { waitFor } from '@leadforge/testing';
import { registerAdmin } from '../support/verifiedAdmin.ts';

const missing = missingPrerequisites();
const skipReason = missing ? ` (skipped: ${missing.what} missing; ${missing.install})` : '';
const ADMIN = 'dist-admin@example.com';
const runtime = process.env.LEADFORGE_RUNTIME === 'containers' ? 'containers' : 'processes';
const SERVICE_INSTANCES = ['auth', 'billing', 'leads', 'scraper-1', 'scraper-2', 'affiliate', 'contact', 'admin'];

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> =>
  waitFor(read, { until: done, timeoutMs, intervalMs: 200 });

/** /proc/<pid>/comm: the name of the program a pid runs. */
const programOf = (pid: number) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

describe.skipIf(Boolean(missing))(`the product in its production shape (services as ${runtime}), through Envoy${skipReason}`, () => {
  let web: FixtureWeb;
  let paypal: PaypalStandIn;
  let collector: OtlpCollector;
  let stack: DistributedStackProcess;
  let api: ReturnType<typeof apiClient>;
  let env: NodeJS.ProcessEnv;
  let adminAuth: Record<string, string>;
  let seq = 0;

  // Each person registers from their own address: one address registering twice in a day is taken for one person.
  const nextAddress = loopbackAddresses();
  const register = async (name: string, extra: object = {}) => {
    const res = await apiClient(stack.url, { from: nextAddress() })('POST', '/api/auth/register', { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}-${++seq}@example.com`, password: 'secret123', ...extra });
    expect(res.status).toBe(201);
    return { id: res.body.user.id as string, token: res.body.access_token as string, auth: bearer(res.body.access_token), email: res.body.user.email as string };
  };
  const balance = async (auth: Record<string, string>) => (await api('GET', '/api/auth/me', undefined, auth)).body.credits as number;
  const buy = async (auth: Record<string, string>, planId: string) => {
    const created = await api('POST', '/api/payments/create', { plan_id: planId }, auth);
    expect(created.status).toBe(200);
    paypal.approve(created.body.payment_id);
    return api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, auth);
  };

  beforeAll(async () => {
    [web, paypal, collector] = await Promise.all([startFixtureWeb({ sites: 60 }), startPaypalStandIn(), startOtlpCollector()]);
    env = {
      ...paypal.env,
      ...fixtureWebEnv(web.urls),
      ADMIN_EMAILS: ADMIN,
      // Rate limits would answer 429 before the fuzzer's input is looked at: lift the services' own.
      AUTH_REGISTER_PER_IP_PER_HOUR: '1000000',
      AUTH_LOGIN_PER_IP_PER_MINUTE: '1000000',
      AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES: '1000000',
      CONTACT_PER_IP_PER_HOUR: '1000000',
      AFFILIATE_APPLY_PER_IP_PER_HOUR: '1000000',
      AFFILIATE_VISITS_PER_IP_PER_MINUTE: '1000000',
      BILLING_ORDERS_PER_USER_PER_HOUR: '1000000',
      BILLING_PROMO_ORDERS_PER_IP_PER_HOUR: '1000000',
      SCRAPER_PER_HOST_DELAY_MS: '0',
      SCRAPER_JOB_POLL_MS: '200',
      SCRAPER_LEAD_BATCH_MS: '100',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      // For Prometheus watching it (prometheusWatching.ts): 1 s scrapes, alert durations divided by 60.
      PROMETHEUS_INTERVAL: '1s',
      PROMETHEUS_RULE_TIME_SCALE: '60',
      // For the crashes (supervisedCrashes.ts): a killed consumer's partitions go to its successor after 6 s, not 30.
      ...SHORT_KAFKA_SESSIONS,
    };
    stack = await startDistributedStack({ env, runtime });
    api = apiClient(stack.url);
    adminAuth = bearer((await registerAdmin(api, stack.dataDir, { name: 'Dist Admin', email: ADMIN, password: 'secret123' })).token);
  }, 900_000);
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([web?.close(), paypal?.close(), collector?.close()]);
  });

  it('runs every part as its own process, listed in topology.json with the real pids', async () => {
    const { components } = stack.topology();
    const names = components.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['postgres', 'redis', 'kafka', 'auth', 'billing', 'leads', 'scraper-1', 'scraper-2', 'affiliate', 'contact', 'admin', 'web', 'envoy']));
    expect(new Set(components.map((c) => c.pid)).size).toBe(components.length);
    expect(programOf(stack.component('postgres').pid)).toBe('postgres');
    expect(programOf(stack.component('redis').pid)).toMatch(/^redis-server/);
    expect(programOf(stack.component('kafka').pid)).toBe('java');
    expect(programOf(stack.component('envoy').pid)).toBe('envoy');
    expect(programOf(stack.component('auth').pid)).toBe('node');
    expect(stack.component('kafka').bootstrap).toMatch(/^127\.0\.0\.1:\d+$/);
    if (runtime === 'containers') {
      // Each from its own image, as the image's user; the pid listed is the container's process.
      const engine = containerEngine(process.env);
      for (const name of [...SERVICE_INSTANCES, 'web']) {
        const { container, image, pid } = stack.component(name);
        expect({ name, image }).toEqual({ name, image: imageOf(process.env, name.replace(/-\d+$/, '')) });
        const inspected = execFileSync(engine.command, ['inspect', '--format', '{{.State.Pid}} {{.Config.User}}', container!], { env: engine.env, encoding: 'utf8' }).trim();
        expect({ name, inspected }).toEqual({ name, inspected: `${pid} ${name === 'web' ? '101:101' : '1000:1000'}` });
      }
      expect(programOf(stack.component('web').pid)).toBe('nginx');
    } else {
      for (const name of SERVICE_INSTANCES) expect(stack.component(name).container).toBeUndefined();
    }
  });

  it('every service process answers /metrics on its own port, and Envoy keeps /metrics and /internal closed', async () => {
    for (const name of SERVICE_INSTANCES) {
      const res = await fetch(`${stack.component(name).url}/metrics`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(await res.text()).toContain('process_cpu_seconds_total');
    }
    expect((await api('GET', '/metrics')).status).toBe(404);
    expect((await api('GET', '/internal/users/x/standing')).status).toBe(404);
    expect((await api('GET', '/api/auth/me')).body).toMatchObject({ detail: 'Authentication required' });
  });

  it('serves the SPA on / with the security headers', async () => {
    const res = await fetch(`${stack.url}/credits`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('registers: the signup grant crosses Kafka to billing and back into the balance', async () => {
    const user = await register('Grant Tester');
    expect(await until(() => balance(user.auth), (b) => b === 10)).toBe(10);
  });

  it('buys through PayPal (the stand-in): credits granted once, visible in the admin read models', async () => {
    const buyer = await register('Dist Buyer');
    await until(() => balance(buyer.auth), (b) => b === 10);
    const executed = await buy(buyer.auth, 'starter');
    expect(executed.body).toMatchObject({ success: true, credits_added: 100 });
    expect(await balance(buyer.auth)).toBe(110);
    const stats = await until(
      async () => (await api('GET', `/api/admin/enhanced-stats?search=${encodeURIComponent(buyer.email)}`, undefined, adminAuth)).body,
      (s) => s.users?.[0]?.credits === 110 && s.stats.recent_purchases.some((p: { user_id: string }) => p.user_id === buyer.id),
    );
    expect(stats.users[0]).toMatchObject({ id: buyer.id, credits: 110 });
    expect(stats.stats.recent_purchases).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: buyer.id, plan_id: 'starter', amount: 19, credits: 100 })]));
  });

  it('a referred buyer earns the referrer 10% commission, across three services and the broker', async () => {
    const ada = await register('Ada Referrer');
    const code = (await api('GET', '/api/affiliate/stats', undefined, ada.auth)).body.referral_code;
    const landed = await api('POST', '/api/affiliate/referral-visits', { code });
    expect(landed.status).toBe(201);
    const bob = await register('Bob Referred', { referral_code: landed.body.referral_token });
    await until(async () => (await api('GET', '/api/affiliate/stats', undefined, ada.auth)).body, (s) => s.total_referrals === 1);
    expect((await buy(bob.auth, 'growth')).body).toMatchObject({ success: true });
    const earned = await until(async () => (await api('GET', '/api/affiliate/stats', undefined, ada.auth)).body, (s) => s.total_commissions > 0);
    expect(earned).toMatchObject({ total_referrals: 1, total_commissions: 4.9 });
  });

  it('a lead search streams its leads over SSE through Envoy, event by event, and settles the credits exactly', async () => {
    const user = await register('Dist Searcher');
    await until(() => balance(user.auth), (b) => b === 10);
    expect((await buy(user.auth, 'starter')).body).toMatchObject({ success: true });
    const started = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 25 }, user.auth);
    expect(started.status).toBe(201);
    const { messages } = await readFeed(`${stack.url}/api/lead-searches/${started.body.id}/events`, user.auth, { until: (m) => m.event === 'finished', timeoutMs: 120_000 });
    const batches = messages.filter((m) => m.event === 'leads');
    const leads = batches.flatMap((m) => m.data.leads);
    expect(leads).toHaveLength(25);
    // Streamed through Envoy, not buffered to the end: batches arrived at different moments.
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.at(-1)!.at - batches[0].at).toBeGreaterThan(50);
    expect(messages.at(-1)!.data).toMatchObject({ status: 'completed', stats: { total_found: 25, credits_used: 25, remaining_credits: 85 } });
    expect(await balance(user.auth)).toBe(85);
    expect(new Set(leads.map((l: { company: string }) => l.company)).size).toBe(25);
  }, 180_000);

  it('a monitor runs over Kafka through Envoy: run now skips what the user already has and charges 1 credit per new business', async () => {
    const user = await register('Dist Watcher');
    await until(() => balance(user.auth), (b) => b === 10);
    const search = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 4 }, user.auth);
    await readFeed(`${stack.url}/api/lead-searches/${search.body.id}/events`, user.auth, { until: (m) => m.event === 'finished', timeoutMs: 120_000 });
    const had = new Set((await api('GET', `/api/lead-searches/${search.body.id}`, undefined, user.auth)).body.leads.map((l: { company: string }) => l.company));
    expect(had.size).toBe(4);

    const monitor = await api('POST', '/api/monitors', { industry: 'Dentists', location: 'London', max_leads_per_run: 3, frequency: 'daily' }, user.auth);
    expect(monitor.status).toBe(201);
    const run = await api('POST', `/api/monitors/${monitor.body.id}/run`, undefined, user.auth);
    expect(run.status).toBe(202);
    const { messages } = await readFeed(`${stack.url}/api/lead-searches/${run.body.search_id}/events`, user.auth, { until: (m) => m.event === 'finished', timeoutMs: 120_000 });
    const leads = messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads);
    expect(leads).toHaveLength(3);
    expect(leads.some((l: { company: string }) => had.has(l.company))).toBe(false);
    expect(messages.at(-1)!.data).toMatchObject({ status: 'completed', stats: { total_found: 3, credits_used: 3 } });
    expect(await until(() => balance(user.auth), (b) => b === 3)).toBe(3);
    const runs = await until(async () => (await api('GET', `/api/monitors/${monitor.body.id}/runs`, undefined, user.auth)).body.runs, (r) => r[0]?.finished_at !== null);
    expect(runs).toMatchObject([{ search_id: run.body.search_id, status: 'completed', new_leads: 3, credits_used: 3 }]);
  }, 240_000);

  it('once DELETE /api/account answers, no service takes the account\'s token or key; the erasure over Kafka leaves none of its searches', async () => {
    const leaver = await register('Dist Leaver');
    await until(() => balance(leaver.auth), (b) => b === 10);
    const { body: { key } } = await api('POST', '/api/api-keys', { name: 'leaver' }, leaver.auth);
    const started = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 5 }, leaver.auth);
    expect(started.status).toBe(201);
    // Every service has just seen the user active (a standing cache would keep that answer).
    const userRoutes = ['/api/auth/me', '/api/payments/history', '/api/lead-searches', '/api/affiliate/stats'];
    for (const path of userRoutes) expect({ path, status: (await api('GET', path, undefined, leaver.auth)).status }).toEqual({ path, status: 200 });
    expect((await api('GET', '/api/lead-searches', undefined, { 'x-api-key': key })).status).toBe(200);

    expect((await api('DELETE', '/api/account', { password: 'secret123' }, leaver.auth)).status).toBe(200);
    for (const path of userRoutes) expect({ path, status: (await api('GET', path, undefined, leaver.auth)).status }).toEqual({ path, status: 401 });
    const again = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 5 }, leaver.auth);
    expect(again.status).toBe(401);
    expect((await api('GET', '/api/lead-searches', undefined, { 'x-api-key': key })).status).toBe(401);
    expect((await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 5 }, { 'x-api-key': key })).status).toBe(401);

    // account.deleted crosses Kafka to leads, which erases the search and refuses the account from then on.
    const leadsDb = new pg.Client({ connectionString: `${stack.component('postgres').url!.replace('postgres://', 'postgres://postgres@')}/leads` });
    await leadsDb.connect();
    try {
      const left = await until(async () => {
        const searches = await leadsDb.query('SELECT count(*)::int AS n FROM lead_searches WHERE user_id = $1', [leaver.id]);
        const erased = await leadsDb.query('SELECT count(*)::int AS n FROM erased_accounts WHERE user_id = $1', [leaver.id]);
        return { searches: searches.rows[0].n as number, erased: erased.rows[0].n as number };
      }, (v) => v.erased === 1, 60_000);
      expect(left).toEqual({ searches: 0, erased: 1 });
    } finally {
      await leadsDb.end();
    }
  }, 120_000);

  it('one trace follows a search from Envoy through leads, Kafka and a scraper replica back to leads', async () => {
    const user = await register('Trace Searcher');
    await until(() => balance(user.auth), (b) => b === 10);
    const started = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 5 }, user.auth);
    expect(started.status).toBe(201);
    await readFeed(`${stack.url}/api/lead-searches/${started.body.id}/events`, user.auth, { until: (m) => m.event === 'finished', timeoutMs: 120_000 });
    const isRequest = (span: { service: string; attributes: Record<string, unknown> }) => span.service === 'leadforge-leads'
      && span.attributes['http.route'] === '/api/lead-searches' && span.attributes['http.request.method'] === 'POST';
    const names = (spans: Array<{ service: string; name: string }>) => spans.map((s) => `${s.service}: ${s.name}`);
    let traced = collector.traceOf(isRequest);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !['leadforge-gateway', 'leadforge-scraper'].every((service) => traced.some((s) => s.service === service)
      && traced.some((s) => s.service === 'leadforge-leads' && s.name.startsWith('consume ')))) {
      await new Promise((r) => setTimeout(r, 250));
      traced = collector.traceOf(isRequest);
    }
    expect(names(traced)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^leadforge-gateway: /),
      expect.stringMatching(/^leadforge-leads: /),
      'leadforge-scraper: consume search.requested',
      'leadforge-scraper: search run',
      expect.stringMatching(/^leadforge-leads: consume /),
    ]));
    // The gateway's span is the root: every other span of the trace descends from it.
    const root = traced.find((s) => s.service === 'leadforge-gateway')!;
    expect(root.parentSpanId).toBe('');
  }, 180_000);

  it('answers hostile input on every route through Envoy with a 4xx and a detail, and keeps answering', async () => {
    const fuzzer = await register('Fuzz User');
    const report = await fuzzRoutes(stack.url, { user: fuzzer.token, admin: adminAuth.authorization.slice('Bearer '.length) });
    expect(report.requests).toBeGreaterThan(1000);
    expect(report.failures).toEqual([]);
    expect((await api('GET', '/api/auth/me', undefined, fuzzer.auth)).status).toBe(200);
  }, 600_000);

  // Before the crashes and the restart below: its alert test freezes the broker and waits until everything has drained.
  describePrometheusWatching(() => ({ stack, paypal }));
  describeSupervision(() => ({ stack }));

  it('Ctrl-C stops every process and exits 0; a second start on the same data keeps accounts, purchases and sessions', async () => {
    const keeper = await register('Keeper');
    await until(() => balance(keeper.auth), (b) => b === 10);
    expect((await buy(keeper.auth, 'starter')).body).toMatchObject({ success: true });
    const components = stack.topology().components;
    expect(await stack.stop()).toBe(0);
    // Every component, restarted ones included (supervisedCrashes.ts), stopped in reverse order of start.
    const stopped = stoppedLines(stack.output());
    expect(new Set(stopped.map((c) => c.name))).toEqual(new Set(components.map((c) => c.name)));
    const position = (name: string) => stopped.findIndex((c) => c.name === name);
    // Stages: envoy, web, the services but auth, auth, kafka, redis, postgres.
    const order = ['envoy', 'web', 'billing', 'auth', 'kafka', 'redis', 'postgres'];
    for (let i = 1; i < order.length; i++) expect(position(order[i - 1])).toBeLessThan(position(order[i]));
    for (const c of components) expect({ name: c.name, alive: processAlive(c.pid) }).toEqual({ name: c.name, alive: false });
    if (runtime === 'containers') {
      // No container is left behind, running or stopped.
      const engine = containerEngine(process.env);
      const left = execFileSync(engine.command, ['ps', '--all', '--format', '{{.Names}}'], { env: engine.env, encoding: 'utf8' }).split('\n');
      for (const c of components.filter((c) => c.container)) expect(left).not.toContain(c.container);
    }

    stack = await startDistributedStack({ dataDir: stack.dataDir, env, runtime });
    api = apiClient(stack.url);
    // The token issued before the restart still works: the signing key was kept.
    expect(await balance(keeper.auth)).toBe(110);
    const login = await api('POST', '/api/auth/login', { email: keeper.email, password: 'secret123' });
    expect(login.status).toBe(200);
    const history = await api('GET', '/api/payments/history', undefined, keeper.auth);
    expect(history.body.purchases).toHaveLength(1);
  }, 900_000);
});

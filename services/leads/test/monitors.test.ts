import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { v7 as uuidv7 } from 'uuid';
import { TOPICS, type EventEnvelope } from '@leadforge/contracts';
import { collectConfig } from '@leadforge/kit/config';
import type { ServiceContext } from '@leadforge/kit/service';
import { leadsConfigFrom } from '../src/config.ts';
import { buildRuntime } from '../src/runtime.ts';
import { startMonitorRun } from '../src/monitors/monitorRunStart.ts';
import { engineLead } from './support/engineStandIn.ts';
import { INTERNAL_TOKEN, startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

/** Another replica's runtime on the service under test's database and configuration. */
const replicaRuntime = (ctx: ServiceContext) => buildRuntime(ctx, collectConfig((problems) => leadsConfigFrom(ctx.env, problems, ctx.config)));

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
let seq = 0;
const DAY_MS = 24 * 3600_000;
const SPREAD_MS = 900_000;
const STARTS_PER_MINUTE = 5;

for (const kind of kinds) {
  const skipped = kind === 'postgres' && !postgresConfigured;
  describe.skipIf(skipped)(`monitors, leads service on ${kind}${skipped ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let t: LeadsUnderTest;

    beforeAll(async () => {
      // The service's own scheduler looks once at start and then hourly: each test drives schedulers itself.
      // Starts a minute: above what any other test starts per user, below the running limit, so the start limit is what refuses.
      t = await startLeadsUnderTest(kind, {
        LEADS_MAX_RUNNING_PER_USER: '10', LEADS_STARTS_PER_MINUTE: String(STARTS_PER_MINUTE), MONITORS_TICK_SECONDS: '3600', MONITORS_SPREAD_SECONDS: String(SPREAD_MS / 1000),
      });
    }, 180_000);
    afterAll(async () => t?.stop());

    const db = () => t.svc.ctx.db;
    const newUser = (credits: number) => {
      const id = `user-monitor-${kind}-${++seq}`;
      t.billing.setBalance(id, credits);
      return { id, token: t.auth.tokenFor(id) };
    };
    const body = (overrides: object = {}) => ({ industry: 'Dentists', location: `Würzburg ${kind} ${++seq}`, max_leads_per_run: 5, frequency: 'daily', ...overrides });
    const create = async (token: string, overrides: object = {}) => {
      const created = await t.call('POST', '/api/monitors', body(overrides), token);
      expect(created.status).toBe(201);
      return created.body;
    };
    const settled = (searchId: string) =>
      expect.poll(async () => (await db()('lead_searches').where({ id: searchId }).first())?.credits, { timeout: 10_000 }).toMatch(/^(settled|released)$/);
    /** Business `i` of this test's world: its own place key, website and email. */
    const lead = (world: string, i: number) => engineLead(i, { key: `osm:node/${world}-${i}`, email: `hi@${world}x${i}.example`, website: `https://${world}x${i}.example/`, phone: `+4993${world.replace(/\D/g, '').padStart(3, '0')}${String(i).padStart(4, '0')}` });
    /** Answers the search as the engine would, with these businesses, and waits for its books to close. */
    const answer = async (searchId: string, leads: ReturnType<typeof engineLead>[]) => {
      await t.engine.waitForRequest(searchId);
      if (leads.length) await t.engine.leads(searchId, leads);
      await t.engine.finish(searchId, 'done');
      await settled(searchId);
    };
    const runNow = async (monitorId: string, token: string) => {
      const started = await t.call('POST', `/api/monitors/${monitorId}/run`, undefined, token);
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      return started.body.search_id as string;
    };
    /**
     * Runs schedulers (each a replica's: its own LeasedQueue on the same database) until every one of
     * these monitors has moved on from `due`, then stops them.
     */
    const schedule = async (count: number, ids: string[], due: Date) => {
      const replicas = Array.from({ length: count }, () => replicaRuntime(t.svc.ctx).monitors);
      for (const replica of replicas) replica.start();
      try {
        await expect.poll(async () => (await db()('monitors').whereIn('id', ids)).every((row) => new Date(row.next_run_at).getTime() > due.getTime()), { timeout: 60_000 }).toBe(true);
      } finally {
        await Promise.all(replicas.map((replica) => replica.stop()));
      }
    };
    /** Makes the monitor due (its due time and its spread moment passed). */
    const makeDue = (id: string, dueAt = new Date(Date.now() - 60_000)) => db()('monitors').where({ id }).update({ next_run_at: dueAt, next_attempt_at: dueAt });

    it('creates, lists, reads, changes and deletes a monitor; bad input is a 400 with a detail', async () => {
      const user = newUser(10);
      const before = Date.now();
      const monitor = await create(user.token, { notify_email: true });
      expect(monitor).toMatchObject({ industry: 'Dentists', max_leads_per_run: 5, frequency: 'daily', status: 'active', notify_email: true, last_run: null });
      // The first scheduled run is one period after creation ("Run now" runs at once).
      expect(Date.parse(monitor.next_run_at) - before).toBeGreaterThanOrEqual(DAY_MS - 1000);
      const row = await db()('monitors').where({ id: monitor.id }).first();
      const spread = new Date(row.next_attempt_at).getTime() - new Date(row.next_run_at).getTime();
      expect(spread).toBeGreaterThanOrEqual(0);
      expect(spread).toBeLessThan(SPREAD_MS);

      expect((await t.call('GET', '/api/monitors', undefined, user.token)).body.monitors.map((m: { id: string }) => m.id)).toEqual([monitor.id]);
      const read = await t.call('GET', `/api/monitors/${monitor.id}`, undefined, user.token);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: monitor.id, runs: [] });

      const paused = await t.call('PATCH', `/api/monitors/${monitor.id}`, { status: 'paused', max_leads_per_run: 7, notify_email: false }, user.token);
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ status: 'paused', max_leads_per_run: 7, notify_email: false, next_run_at: null });
      const resumed = await t.call('PATCH', `/api/monitors/${monitor.id}`, { status: 'active', frequency: 'weekly' }, user.token);
      expect(resumed.body).toMatchObject({ status: 'active', frequency: 'weekly' });
      expect(Date.parse(resumed.body.next_run_at) - Date.now()).toBeGreaterThan(6 * DAY_MS);

      const bad: [object, RegExp][] = [
        [body({ max_leads_per_run: 0 }), /max_leads_per_run must be a whole number from 1 to 200/],
        [body({ max_leads_per_run: 201 }), /max_leads_per_run must be a whole number from 1 to 200/],
        [body({ max_leads_per_run: 2.5 }), /max_leads_per_run/],
        [body({ frequency: 'hourly' }), /frequency must be "daily" or "weekly"/],
        [body({ industry: '   ' }), /Please fill in both industry and location fields/],
        [body({ notify_email: 'yes' }), /notify_email must be true or false/],
        [{ industry: 'Dentists', location: 'Würzburg' }, /required/],
      ];
      for (const [input, detail] of bad) {
        const answer = await t.call('POST', '/api/monitors', input, user.token);
        expect(answer.status, JSON.stringify(input)).toBe(400);
        expect(answer.body.detail).toMatch(detail);
      }
      // Unknown fields are stripped: one that names nothing to change is refused, never an empty update (a 500).
      for (const change of [{}, { status: 'stopped' }, { frequency: 'monthly' }, { colour: 'blue' }, { name: 'x', paused: true }]) {
        const answer = await t.call('PATCH', `/api/monitors/${monitor.id}`, change, user.token);
        expect(answer.status, JSON.stringify(change)).toBe(400);
        expect(answer.body.detail).toBeTruthy();
      }
      for (const change of [{}, { colour: 'blue' }]) {
        expect((await t.call('PATCH', `/api/monitors/${monitor.id}`, change, user.token)).body.detail).toBe('Give at least one of status, max_leads_per_run, frequency, notify_email');
      }

      expect((await t.call('DELETE', `/api/monitors/${monitor.id}`, undefined, user.token)).status).toBe(204);
      expect((await t.call('GET', `/api/monitors/${monitor.id}`, undefined, user.token)).status).toBe(404);
      expect((await t.call('GET', '/api/monitors', undefined, user.token)).body.monitors).toEqual([]);
      expect((await t.call('GET', '/api/monitors')).status).toBe(401);
    });

    it("answers 404 for another user's monitor on every route, and for a malformed or unknown id", async () => {
      const owner = newUser(10);
      const other = newUser(10);
      const monitor = await create(owner.token);
      const routes: [string, string, object?][] = [
        ['GET', `/api/monitors/${monitor.id}`],
        ['PATCH', `/api/monitors/${monitor.id}`, { status: 'paused' }],
        ['DELETE', `/api/monitors/${monitor.id}`],
        ['POST', `/api/monitors/${monitor.id}/run`],
        ['GET', `/api/monitors/${monitor.id}/runs`],
      ];
      for (const [method, path, input] of routes) {
        const answer = await t.call(method, path, input, other.token);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body.detail).toBe('Monitor not found');
      }
      for (const id of ['not-a-uuid', '01890000-0000-7000-8000-000000000000']) {
        expect((await t.call('GET', `/api/monitors/${id}`, undefined, owner.token)).status).toBe(404);
      }
      expect((await t.call('GET', '/api/monitors', undefined, other.token)).body.monitors).toEqual([]);
      // Untouched by the other user's attempts.
      expect((await t.call('GET', `/api/monitors/${monitor.id}`, undefined, owner.token)).body).toMatchObject({ status: 'active' });
      expect(t.billing.balanceOf(owner.id)).toBe(10);
    });

    it('a run delivers only businesses the user never received (from any search or run, past the 90-day window too) and charges 1 credit each; nothing new charges 0', async () => {
      const user = newUser(100);
      const world = `w${kind}${++seq}`;
      const location = `Würzburg ${world}`;
      // An ordinary search delivered businesses 1 and 2; business 1 was bought 200 days ago (outside the window).
      const search = await t.call('POST', '/api/lead-searches', { industry: 'Dentists', location, quantity: 2 }, user.token);
      await answer(search.body.id, [lead(world, 1), lead(world, 2)]);
      await db()('owned_businesses').where({ user_id: user.id, search_id: search.body.id }).andWhere('business_key', 'like', `%${world}-1`)
        .update({ acquired_at: new Date(Date.now() - 200 * DAY_MS) });
      expect(t.billing.balanceOf(user.id)).toBe(98);

      const monitor = await create(user.token, { location, max_leads_per_run: 5 });
      const firstRun = await runNow(monitor.id, user.token);
      const request = await t.engine.waitForRequest(firstRun);
      // The engine is told what the user ever received from this location (business 1 too, past the
      // window), by lead intake's keys, so it neither crawls nor counts them: the quantity needs no padding.
      const keysOf = (...ids: number[]) => ids.flatMap((i) => [`place:osm:node/${world}-${i}`, `site:${world}x${i}.example`, `phone:${lead(world, i).phone}`]);
      // It is told the run is the monitor's, so it reuses what it knows of the area (sites found without contacts).
      expect(request).toMatchObject({ industry: 'Dentists', location, quantity: 5, monitor_id: monitor.id });
      expect([...(request.known_business_keys ?? [])].sort()).toEqual(keysOf(1, 2).sort());
      // The same place under another website, and the same website under another place, are still "received".
      const samePlaceNewSite = { ...lead(world, 2), website: `https://elsewhere-${world}.example/`, email: '' };
      await answer(firstRun, [lead(world, 1), samePlaceNewSite, lead(world, 3), lead(world, 4)]);
      const detail = (await t.call('GET', `/api/lead-searches/${firstRun}`, undefined, user.token)).body;
      expect(detail).toMatchObject({ monitor_id: monitor.id, status: 'completed', leads_count: 2, credits_used: 2, quantity: 5 });
      expect(detail.leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 3', 'Bright Smiles Dental 4']);
      expect(t.billing.balanceOf(user.id)).toBe(96);
      // It is a search like any other: in the history.
      const history = (await t.call('GET', '/api/lead-searches', undefined, user.token)).body.searches;
      expect(history.find((s: { id: string }) => s.id === firstRun)).toMatchObject({ monitor_id: monitor.id });
      expect(history.find((s: { id: string }) => s.id === search.body.id)).toMatchObject({ monitor_id: null });

      // A run that finds only what the user has: recorded, nothing new, nothing charged.
      const secondRun = await runNow(monitor.id, user.token);
      expect([...((await t.engine.waitForRequest(secondRun)).known_business_keys ?? [])].sort()).toEqual(keysOf(1, 2, 3, 4).sort());
      await answer(secondRun, [lead(world, 1), lead(world, 2), lead(world, 3), lead(world, 4)]);
      expect(t.billing.balanceOf(user.id)).toBe(96);
      const runs = (await t.call('GET', `/api/monitors/${monitor.id}/runs`, undefined, user.token)).body.runs;
      expect(runs).toMatchObject([
        { search_id: secondRun, status: 'completed', new_leads: 0, credits_used: 0, trigger: 'manual' },
        { search_id: firstRun, status: 'completed', new_leads: 2, credits_used: 2, trigger: 'manual' },
      ]);
      expect(runs[0].finished_at).toBeTruthy();
      const listed = (await t.call('GET', '/api/monitors', undefined, user.token)).body.monitors[0];
      expect(listed.last_run).toMatchObject({ search_id: secondRun, new_leads: 0 });

      // Each ended run is announced (auth emails from it); the one with nothing new says 0.
      const announced = (await db()('kit_outbox').whereRaw("envelope->>'type' = 'monitor.run.completed'").andWhere({ key: monitor.id })).map((r) => r.envelope.data);
      expect(announced.map((d: { search_id: string; new_leads: number }) => [d.search_id, d.new_leads]).sort()).toEqual([[firstRun, 2], [secondRun, 0]].sort());
    });

    it('without enough credits a run delivers what the balance allows, or is recorded insufficient_credits with nothing charged; the monitor stays active', async () => {
      const user = newUser(3);
      const world = `c${kind}${++seq}`;
      const monitor = await create(user.token, { location: `Würzburg ${world}`, max_leads_per_run: 10 });
      const run = await runNow(monitor.id, user.token);
      await answer(run, [1, 2, 3, 4, 5].map((i) => lead(world, i)));
      expect((await t.call('GET', `/api/lead-searches/${run}`, undefined, user.token)).body).toMatchObject({ quantity: 3, leads_count: 3, credits_used: 3 });
      expect(t.billing.balanceOf(user.id)).toBe(0);

      const broke = await t.call('POST', `/api/monitors/${monitor.id}/run`, undefined, user.token);
      expect(broke.status).toBe(402);
      expect(broke.body.detail).toMatch(/no credits/);
      expect(t.billing.balanceOf(user.id)).toBe(0);
      // The scheduler's run due now meets the same balance: recorded, nothing charged, and the user is told.
      const due = new Date(Date.now() - 60_000);
      await makeDue(monitor.id, due);
      await schedule(1, [monitor.id], due);
      const runs = (await t.call('GET', `/api/monitors/${monitor.id}/runs`, undefined, user.token)).body.runs;
      expect(runs.map((r: { status: string; trigger: string; credits_used: number; search_id: string | null }) => [r.status, r.trigger, r.credits_used, r.search_id]))
        .toEqual([['insufficient_credits', 'schedule', 0, null], ['insufficient_credits', 'manual', 0, null], ['completed', 'manual', 3, run]]);
      const monitorNow = (await t.call('GET', `/api/monitors/${monitor.id}`, undefined, user.token)).body;
      expect(monitorNow.status).toBe('active');
      expect(Date.parse(monitorNow.next_run_at)).toBeGreaterThan(Date.now());
      const told = (await db()('kit_outbox').whereRaw("envelope->>'type' = 'monitor.run.completed'").andWhere({ key: monitor.id })).map((r) => r.envelope.data.status);
      expect(told.filter((s: string) => s === 'insufficient_credits')).toHaveLength(2);
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toHaveLength(1);
    });

    it('runs each due monitor exactly once per due time with two schedulers racing, never a paused one, and spreads the next runs', async () => {
      const user = newUser(1000);
      const due = new Date(Date.now() - 60_000);
      const monitors = await Promise.all(Array.from({ length: 6 }, () => create(user.token, { max_leads_per_run: 2 })));
      const paused = await create(user.token);
      await t.call('PATCH', `/api/monitors/${paused.id}`, { status: 'paused' }, user.token);
      for (const monitor of [...monitors, paused]) await makeDue(monitor.id, due);
      // Paused after it became due: still never run.
      await db()('monitors').where({ id: paused.id }).update({ status: 'paused' });

      const ids = monitors.map((m) => m.id);
      await schedule(2, ids, due);

      const runs = await db()('monitor_runs').whereIn('monitor_id', [...ids, paused.id]);
      expect(runs.map((r) => r.monitor_id).sort()).toEqual([...ids].sort());
      expect(runs.every((r) => new Date(r.due_at).getTime() === due.getTime() && r.trigger === 'schedule' && r.search_id)).toBe(true);
      const searches = await db()('lead_searches').whereIn('monitor_id', [...ids, paused.id]);
      expect(searches.map((s) => s.monitor_id).sort()).toEqual([...ids].sort());
      // Credits were held once per run.
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toHaveLength(ids.length);

      const rows = await db()('monitors').whereIn('id', ids);
      for (const row of rows) {
        expect(new Date(row.next_run_at).getTime()).toBe(due.getTime() + DAY_MS);
        const wait = new Date(row.next_attempt_at).getTime() - new Date(row.next_run_at).getTime();
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(SPREAD_MS);
      }
      // Six monitors due at the same moment next start at different moments of the spread.
      expect(new Set(rows.map((row) => new Date(row.next_attempt_at).getTime())).size).toBeGreaterThan(1);
      expect(await db()('monitor_runs').where({ monitor_id: paused.id })).toEqual([]);
      for (const search of searches) await answer(search.id, []);
    });

    it('run now counts toward the per-user start limit shared with searches: past it a 429 with a detail, nothing charged, no run recorded; another user is not affected', async () => {
      const user = newUser(100);
      const other = newUser(100);
      const monitor = await create(user.token, { max_leads_per_run: 2 });
      const othersMonitor = await create(other.token, { max_leads_per_run: 2 });
      const search = () => t.call('POST', '/api/lead-searches', { industry: 'Dentists', location: monitor.location, quantity: 2 }, user.token);
      // The limit's worth of starts, searches and run-nows mixed; the monitor's later run-nows come while its first run is still in flight.
      const started: string[] = [];
      for (let i = 0; i < STARTS_PER_MINUTE; i++) {
        if (i % 2 === 0) {
          const reply = await search();
          expect(reply.status, JSON.stringify(reply.body)).toBe(201);
          started.push(reply.body.id);
        } else {
          started.push(await runNow(monitor.id, user.token));
        }
      }
      const balance = t.billing.balanceOf(user.id);
      const holds = t.billing.reservations().filter((r) => r.user_id === user.id).length;
      const runs = await db()('monitor_runs').where({ monitor_id: monitor.id });
      const searches = await db()('lead_searches').where({ user_id: user.id });
      expect(searches).toHaveLength(STARTS_PER_MINUTE);

      const refused = await t.call('POST', `/api/monitors/${monitor.id}/run`, undefined, user.token);
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toMatch(new RegExp(`You are starting searches too quickly \\(at most ${STARTS_PER_MINUTE} a minute\\)\\. Please wait \\d+ seconds? and try again\\.`));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // A search start meets the same limit.
      expect((await search()).status).toBe(429);
      expect(t.billing.balanceOf(user.id)).toBe(balance);
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toHaveLength(holds);
      expect(await db()('monitor_runs').where({ monitor_id: monitor.id })).toHaveLength(runs.length);
      expect(await db()('lead_searches').where({ user_id: user.id })).toHaveLength(searches.length);

      // Another user's starts are counted apart.
      started.push(await runNow(othersMonitor.id, other.token));
      for (const id of started) await answer(id, []);
    });

    it('run now refused by the running-search limit is a 429 with a detail and leaves no run behind', async () => {
      const user = newUser(100);
      const monitor = await create(user.token, { max_leads_per_run: 2 });
      // The user's ten running searches (the limit here), started elsewhere: within this minute's start limit they are set up directly.
      const running = Array.from({ length: 10 }, () => ({
        id: uuidv7(), user_id: user.id, industry: 'Dentists', location: monitor.location, quantity: 1, status: 'running', deadline_at: new Date(Date.now() + DAY_MS),
      }));
      await db()('lead_searches').insert(running);
      try {
        const refused = await t.call('POST', `/api/monitors/${monitor.id}/run`, undefined, user.token);
        expect(refused.status).toBe(429);
        expect(refused.body.detail).toBe('You already have 10 searches running. Wait for one to finish or cancel it, then try again.');
        expect(t.billing.balanceOf(user.id)).toBe(100);
        expect(await db()('monitor_runs').where({ monitor_id: monitor.id })).toEqual([]);
        expect((await t.call('GET', `/api/monitors/${monitor.id}`, undefined, user.token)).body).toMatchObject({ last_run: null, runs: [] });
      } finally {
        await db()('lead_searches').whereIn('id', running.map((s) => s.id)).update({ status: 'cancelled', finished_at: new Date() });
      }
      // Once a slot is free it runs.
      await answer(await runNow(monitor.id, user.token), []);
      expect((await t.call('GET', `/api/monitors/${monitor.id}/runs`, undefined, user.token)).body.runs).toMatchObject([{ status: 'completed', trigger: 'manual' }]);
    });

    it('a run whose scheduler died after starting it is not started again when its lease runs out', async () => {
      const user = newUser(100);
      const monitor = await create(user.token, { max_leads_per_run: 2 });
      const due = new Date(Date.now() - 60_000);
      await makeDue(monitor.id, due);
      const rt = replicaRuntime(t.svc.ctx);
      // The replica that claimed it started the run and died before recording it: the row still says due.
      const row = await db()('monitors').where({ id: monitor.id }).first();
      const started = await startMonitorRun(rt.monitorRuns, row, due, 'schedule');
      expect(started.kind).toBe('started');
      await schedule(1, [monitor.id], due);
      const searches = await db()('lead_searches').where({ monitor_id: monitor.id });
      expect(searches).toHaveLength(1);
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toHaveLength(1);
      expect(new Date((await db()('monitors').where({ id: monitor.id }).first()).next_run_at).getTime()).toBe(due.getTime() + DAY_MS);
      await answer(searches[0].id, []);
    });

    it('two starts of one run at once (two "run now" in the same millisecond) make one search, charged once', async () => {
      const user = newUser(100);
      const monitor = await create(user.token, { max_leads_per_run: 3 });
      const rt = replicaRuntime(t.svc.ctx);
      const row = await db()('monitors').where({ id: monitor.id }).first();
      const now = new Date();
      const [a, b] = await Promise.all([startMonitorRun(rt.monitorRuns, row, now, 'manual'), startMonitorRun(rt.monitorRuns, row, now, 'manual')]);
      expect([a.kind, b.kind]).toEqual(['started', 'started']);
      const searches = await db()('lead_searches').where({ monitor_id: monitor.id });
      expect(searches).toHaveLength(1);
      expect([a, b].map((started) => (started.kind === 'started' ? started.searchId : undefined))).toEqual([searches[0].id, searches[0].id]);
      expect(await db()('monitor_runs').where({ monitor_id: monitor.id }).select('search_id')).toEqual([{ search_id: searches[0].id }]);
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toHaveLength(1);
      await answer(searches[0].id, []);
    });

    it('a start of one run that finds the credits held by another start of it leaves that run started, not out of credits', async () => {
      const user = newUser(3);
      const monitor = await create(user.token, { max_leads_per_run: 3 });
      const rt = replicaRuntime(t.svc.ctx);
      const row = await db()('monitors').where({ id: monitor.id }).first();
      const due = new Date(row.next_run_at);
      // The late start (a replica that took the run over while the first still worked) has read the run
      // before the first started its search, and reads the balance only after the first held it all.
      let firstStarted!: () => void;
      const held = new Promise<void>((resolve) => { firstStarted = resolve; });
      const holds = Object.assign(Object.create(rt.monitorRuns.holds) as typeof rt.monitorRuns.holds, {
        balance: async (userId: string) => { await held; return rt.monitorRuns.holds.balance(userId); },
      });
      const late = startMonitorRun({ ...rt.monitorRuns, holds }, row, due, 'schedule');
      await expect.poll(async () => (await db()('monitor_runs').where({ monitor_id: monitor.id })).length).toBe(1);
      const first = await startMonitorRun(rt.monitorRuns, row, due, 'schedule');
      expect(first.kind).toBe('started');
      expect(t.billing.balanceOf(user.id)).toBe(0);
      firstStarted();
      const searches = await db()('lead_searches').where({ monitor_id: monitor.id });
      expect(searches).toHaveLength(1);
      expect(await late).toMatchObject({ kind: 'started', searchId: searches[0].id });
      expect(await db()('monitor_runs').where({ monitor_id: monitor.id }).select('outcome', 'search_id')).toEqual([{ outcome: null, search_id: searches[0].id }]);
      expect(t.billing.reservations().filter((r) => r.user_id === user.id)).toHaveLength(1);
      await answer(searches[0].id, []);
      expect((await t.call('GET', `/api/monitors/${monitor.id}/runs`, undefined, user.token)).body.runs).toMatchObject([{ status: 'completed' }]);
    });

    it('two runs and a search of one area at once charge each new business exactly once', async () => {
      const user = newUser(100);
      const world = `r${kind}${++seq}`;
      const location = `Würzburg ${world}`;
      const monitor = await create(user.token, { location, max_leads_per_run: 6 });
      const [runA, runB, plain] = await Promise.all([
        runNow(monitor.id, user.token),
        runNow(monitor.id, user.token),
        t.call('POST', '/api/lead-searches', { industry: 'Dentists', location, quantity: 6 }, user.token).then((r) => r.body.id as string),
      ]);
      const businesses = [1, 2, 3, 4, 5, 6].map((i) => lead(world, i));
      // Every search is offered the same six businesses at the same time, in different orders.
      await Promise.all([
        answer(runA, businesses),
        answer(runB, [...businesses].reverse()),
        answer(plain, [...businesses.slice(3), ...businesses.slice(0, 3)]),
      ]);
      const counts = await db()('lead_searches').whereIn('id', [runA, runB, plain]).select('leads_count', 'credits_used');
      expect(counts.reduce((sum, c) => sum + c.leads_count, 0)).toBe(6);
      expect(counts.reduce((sum, c) => sum + c.credits_used, 0)).toBe(6);
      expect(t.billing.balanceOf(user.id)).toBe(94);
      const delivered = await db()('leads').whereIn('search_id', [runA, runB, plain]).select('lead_key');
      expect(delivered.map((l) => l.lead_key).sort()).toEqual(businesses.map((b) => b.key).sort());
    });

    it("an erased account's monitors and their runs go with it; its data export lists them", async () => {
      const user = newUser(10);
      const monitor = await create(user.token);
      const exported = await fetch(`${t.svc.url}/internal/account-data/export`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN }, body: JSON.stringify({ user_id: user.id, email: `${user.id}@example.com` }),
      });
      const file = await exported.json();
      expect(file.monitors, JSON.stringify(file)).toEqual([expect.objectContaining({ id: monitor.id, industry: 'Dentists', frequency: 'daily', status: 'active' })]);
      const envelope: EventEnvelope = {
        id: uuidv7(), type: 'account.deleted', version: 1, occurred_at: new Date().toISOString(), key: user.id,
        data: { user_id: user.id, email_sha256: 'f'.repeat(64), deleted_at: new Date().toISOString() },
      };
      await t.bus.publish([{ topic: TOPICS.authUser, key: user.id, envelope }]);
      await expect.poll(async () => db()('kit_handled_events').where({ event_id: envelope.id }).first(), { timeout: 20_000 }).toBeTruthy();
      expect(await db()('monitors').where({ id: monitor.id })).toEqual([]);
    });

    it('queues monitor.run.completed with the new businesses to webhooks that listen to it', async () => {
      const user = newUser(100);
      const world = `h${kind}${++seq}`;
      const monitor = await create(user.token, { location: `Würzburg ${world}` });
      const [endpoint] = await db()('webhook_endpoints').insert({ id: crypto.randomUUID(), user_id: user.id, url: 'https://hooks.example/leadforge', events: JSON.stringify(['monitor.run.completed']), secret: 'whsec_test' }).returning('*');
      const run = await runNow(monitor.id, user.token);
      await answer(run, [lead(world, 1), lead(world, 2)]);
      const deliveries = await db()('webhook_deliveries').where({ endpoint_id: endpoint.id });
      expect(deliveries).toHaveLength(1);
      const payload = JSON.parse(deliveries[0].body);
      expect(payload).toMatchObject({ event: 'monitor.run.completed', data: { monitor_id: monitor.id, search_id: run, credits_used: 2 } });
      expect(payload.data.new_leads.map((l: { company: string }) => l.company)).toEqual(['Bright Smiles Dental 1', 'Bright Smiles Dental 2']);
      // A run with nothing new tells the webhook too (an empty list), once.
      const empty = await runNow(monitor.id, user.token);
      await answer(empty, [lead(world, 1)]);
      const after = await db()('webhook_deliveries').where({ endpoint_id: endpoint.id, search_id: empty });
      expect(after.map((d) => JSON.parse(d.body).data.new_leads)).toEqual([[]]);
    });
  });
}

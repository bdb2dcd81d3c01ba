import { spawn } from 'node:child_process';
import readline from 'node:readline';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresConfigured, type TestDatabase, waitFor } from '@leadforge/testing';
import { loadScraperConfig } from '../src/config.ts';
import { createSiteEnricher } from '../src/crawl/siteEnrichment.ts';
import { readJob } from '../src/search/jobStore.ts';
import { JobWorker } from '../src/search/jobWorker.ts';
import { SearchRun } from '../src/search/searchRun.ts';
import { placesSearchFor } from '../src/places/placesSearchFor.ts';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { fixtureEnv } from './support/scraperUnderTest.ts';
import { MIGRATIONS_DIR, outboxEvents, requestSearch, startReplica, type Replica } from './support/replicas.ts';
import { testPageReader } from './support/testPageReader.ts';

const kinds = ['pglite', 'postgres'] as const;

const sentLeads = (events: { type: string; data: any }[]) => events.filter((event) => event.type === 'scrape.leads_found').flatMap((event) => event.data.leads);

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`replicas sharing jobs on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let web: FixtureWeb;
    let database: TestDatabase;
    const replicas: Replica[] = [];
    // Short leases so a takeover happens within the test; slow sites so a search takes a while.
    const env = { SCRAPER_JOB_LEASE_MS: '800', SCRAPER_JOBS_PER_REPLICA: '2', SCRAPER_LEAD_BATCH_SIZE: '2', SCRAPER_PLACE_CONCURRENCY: '4', SCRAPER_JOB_POLL_MS: '50' };

    /** Claims jobs by hand, as a replica's worker would, for runs driven by the test. */
    const claimer = (claimant: { owner: string; replica?: string }, leaseMs: number) => new JobWorker(
      database.db, claimant, { ...loadScraperConfig({}).jobs, leaseMs }, () => Promise.reject(new Error('runs are driven by the test')), pino({ level: 'silent' }),
    );

    beforeAll(async () => {
      web = await startFixtureWeb({ sites: 120, latencyMs: 40 });
      database = await createTestDatabase('scraper', MIGRATIONS_DIR, kind);
    });
    afterAll(async () => {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await database?.close();
      await web?.close();
    });

    it('lets another replica take over the job of one that died, and sends no lead twice', async () => {
      const db = database.db;
      await requestSearch(db, 'takeover', 40);
      const first = startReplica({ db, web, owner: 'replica-a', env });
      replicas.push(first);
      await waitFor(async () => sentLeads(await outboxEvents(db, 'takeover')).length >= 8, { timeoutMs: 30_000, intervalMs: 25, what: 'first leads' });
      first.worker.abandon();
      const before = sentLeads(await outboxEvents(db, 'takeover')).length;

      const second = startReplica({ db, web, owner: 'replica-b', env });
      replicas.push(second);
      await waitFor(async () => (await readJob(db, 'takeover'))?.state === 'finished', { timeoutMs: 60_000, intervalMs: 25, what: 'the search to finish' });

      const events = await outboxEvents(db, 'takeover');
      const leads = sentLeads(events);
      const finished = events.filter((event) => event.type === 'scrape.finished');
      expect(before).toBeLessThan(40);
      expect(finished).toHaveLength(1);
      expect(finished[0].data).toMatchObject({ reason: 'done', stats: { total_found: 40 } });
      expect(leads).toHaveLength(40);
      expect(new Set(leads.map((lead: any) => lead.key)).size).toBe(40);
      const job = await readJob(db, 'takeover');
      expect(job).toMatchObject({ attempts: 2, leads_sent: 40, finish_reason: 'done' });
    }, 90_000);

    it('shares several searches between replicas, each finished exactly once', async () => {
      const db = database.db;
      const ids = ['share-1', 'share-2', 'share-3', 'share-4'];
      for (const id of ids) await requestSearch(db, id, 10);
      const extra = startReplica({ db, web, owner: 'replica-c', env });
      replicas.push(extra);
      const ranOn = new Map<string, Set<string>>();
      await waitFor(async () => {
        for (const replica of replicas) for (const id of replica.worker.runningSearches) ranOn.set(replica.owner, (ranOn.get(replica.owner) ?? new Set()).add(id));
        const jobs = await Promise.all(ids.map((id) => readJob(db, id)));
        return jobs.every((job) => job?.state === 'finished');
      }, { timeoutMs: 60_000, intervalMs: 25, what: 'all searches to finish' });
      expect(ranOn.get('replica-b')?.size).toBeGreaterThan(0);
      expect(ranOn.get('replica-c')?.size).toBeGreaterThan(0);
      for (const id of ids) {
        const events = await outboxEvents(db, id);
        expect(events.filter((event) => event.type === 'scrape.finished')).toHaveLength(1);
        const leads = sentLeads(events);
        expect(leads).toHaveLength(10);
        expect(new Set(leads.map((lead: any) => lead.key)).size).toBe(10);
      }
    }, 90_000);

    it('refuses the commits of a worker whose lease another replica has taken (fencing)', async () => {
      const db = database.db;
      await Promise.all(replicas.splice(0).map((replica) => replica.stop()));
      await requestSearch(db, 'fenced', 60);
      const config = loadScraperConfig(fixtureEnv(web, env));
      const lease = (await claimer({ owner: 'stalled-worker' }, 60_000).claim())!;
      expect(lease.row.search_id).toBe('fenced');
      const { OutboundClient } = await import('../src/outbound/outboundClient.ts');
      const { memoryProxyQuota } = await import('../src/outbound/proxyQuota.ts');
      const client = new OutboundClient({
        userAgent: config.userAgent, allowPrivateNetworks: true, lookup: web.loopbackLookup, route: web.route, ...config.http,
        quota: memoryProxyQuota(), usage: { record: () => undefined },
      });
      const parsing = testPageReader();
      const run = new SearchRun(lease, {
        db, placesSearch: placesSearchFor(config, client.fetchJson),
        enrich: createSiteEnricher({ client, reader: parsing.reader, contactPages: 3 }), jobs: config.jobs, log: pino({ level: 'silent' }),
      });
      const outcome = run.run();
      await waitFor(async () => sentLeads(await outboxEvents(db, 'fenced')).length >= 4, { timeoutMs: 30_000, intervalMs: 25, what: 'first leads' });
      // Another replica takes the job while this one is stalled.
      await db('scraper_jobs').where({ search_id: 'fenced' }).update({ lease_owner: 'other-replica' });
      const sentAtTakeover = sentLeads(await outboxEvents(db, 'fenced')).length;
      expect(await outcome).toBe('lease_lost');
      expect(sentLeads(await outboxEvents(db, 'fenced')).length).toBe(sentAtTakeover);
      expect((await outboxEvents(db, 'fenced')).filter((event) => event.type === 'scrape.finished')).toHaveLength(0);
      await client.close();
      await parsing.release();
    }, 60_000);

    it('gives a restarted replica the jobs its dead process held at once; other replicas wait for the leases', async () => {
      const db = database.db;
      for (const id of ['restart-1', 'restart-2']) await requestSearch(db, id, 10);
      const dead = claimer({ owner: 'host-a/8080:111:dead', replica: 'host-a/8080' }, 600_000);
      const held = [await dead.claim(), await dead.claim()];
      expect(held.map((lease) => lease?.row.search_id)).toEqual(['restart-1', 'restart-2']);

      expect(await claimer({ owner: 'host-b/8080:222:alive', replica: 'host-b/8080' }, 600_000).claim()).toBeUndefined();
      const restarted = claimer({ owner: 'host-a/8080:333:new', replica: 'host-a/8080' }, 600_000);
      const resumed = [await restarted.claim(), await restarted.claim()];
      expect(resumed.map((lease) => [lease?.row.search_id, lease?.token, lease?.row.attempts]))
        .toEqual([['restart-1', 'host-a/8080:333:new:1', 2], ['restart-2', 'host-a/8080:333:new:2', 2]]);
      // Its own jobs are not claimed twice, and the dead process is fenced off.
      expect(await restarted.claim()).toBeUndefined();
      expect(await db.transaction((trx) => held[0]!.hold(trx))).toBeUndefined();
      await db('scraper_jobs').whereIn('search_id', ['restart-1', 'restart-2']).update({ state: 'finished' });
    });
  });
}

describe.skipIf(!postgresConfigured)(`a replica killed with SIGKILL${postgresConfigured ? '' : ' (skipped: no PostgreSQL, and processes cannot share PGlite; apt-get install -y postgresql)'}`, () => {
  it('has its search finished by another replica, with no lead sent twice', async () => {
    const web = await startFixtureWeb({ sites: 120, latencyMs: 40 });
    const database = await createTestDatabase('scraper', MIGRATIONS_DIR, 'postgres');
    const env = { SCRAPER_JOB_LEASE_MS: '1000', SCRAPER_LEAD_BATCH_SIZE: '2', SCRAPER_PLACE_CONCURRENCY: '4', SCRAPER_JOB_POLL_MS: '50' };
    const db = database.db;
    let survivor: Replica | undefined;
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('./support/replicaProcess.ts', import.meta.url).pathname], {
      env: { ...process.env, ...env, REPLICA_DATABASE_URL: database.url, FIXTURE_WEB_PORT: String(web.port), REPLICA_OWNER: 'doomed-replica' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once('line', () => resolve());
        child.once('exit', (code) => reject(new Error(`replica process exited with ${code}`)));
      });
      await requestSearch(db, 'killed', 40);
      await waitFor(async () => sentLeads(await outboxEvents(db, 'killed')).length >= 8, { timeoutMs: 60_000, intervalMs: 25, what: 'the doomed replica to send leads' });
      // Held by the doomed replica (its claim's token starts with its owner name).
      expect((await readJob(db, 'killed'))?.lease_owner).toMatch(/^doomed-replica:/);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      survivor = startReplica({ db, web, owner: 'survivor', env });
      await waitFor(async () => (await readJob(db, 'killed'))?.state === 'finished', { timeoutMs: 60_000, intervalMs: 25, what: 'the search to finish' });
      const events = await outboxEvents(db, 'killed');
      const leads = sentLeads(events);
      expect(events.filter((event) => event.type === 'scrape.finished')).toHaveLength(1);
      expect(leads).toHaveLength(40);
      expect(new Set(leads.map((lead: any) => lead.key)).size).toBe(40);
      expect(await readJob(db, 'killed')).toMatchObject({ attempts: 2, finish_reason: 'done' });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await survivor?.stop();
      await database.close();
      await web.close();
    }
  }, 120_000);
});

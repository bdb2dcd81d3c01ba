import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@leadforge/kit/db';
import { postgresConfigured, type TestDatabaseKind, waitFor } from '@leadforge/testing';
import pino from 'pino';
import { readJob, recordSearch } from '../src/search/jobStore.ts';
import { JobWorker } from '../src/search/jobWorker.ts';
import { loadScraperConfig } from '../src/config.ts';
import { memoryProxyQuota } from '../src/outbound/proxyQuota.ts';
import { loadQuotaSnapshot } from '../src/outbound/quotaSnapshot.ts';
import { reportAtScrape } from '../src/usage/scrapeTimeGauges.ts';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

/** The samples of one metric on /metrics: labels as written (`{state="queued"}`, or '' without labels) to value. */
function samples(exposition: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const match of exposition.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))) found.set(match[1] ?? '', Number(match[2]));
  return found;
}

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`scraper gauges read at scrape time on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let web: FixtureWeb;
    let scraper: ScraperUnderTest;
    let admin: string;
    const scrape = async (name: string) => samples(await (await fetch(`${scraper.svc.url}/metrics`)).text(), name);

    beforeAll(async () => {
      web = await startFixtureWeb({ sites: 1 });
      scraper = await startScraperUnderTest({ kind, web });
      admin = scraper.identities.tokenFor('admin-1', 'admin');
    });
    afterAll(async () => {
      await scraper?.stop();
      await web?.close();
    });

    it('exports the quota limit next to the remaining count, following the admin\'s changes', async () => {
      expect(await scrape('leadforge_scraper_proxy_quota_limit')).toEqual(new Map([['', 10_000]]));
      await scraper.call('POST', '/api/admin/decodo-quota', { remaining_requests: 2500 }, admin);
      expect(await scrape('leadforge_scraper_proxy_quota_limit')).toEqual(new Map([['', 2500]]));
      expect(await scrape('leadforge_scraper_proxy_quota_remaining')).toEqual(new Map([['', 2500]]));
      // Saved with what is left, so a restart of a local install keeps it.
      expect(await loadQuotaSnapshot(scraper.svc.ctx.db)).toEqual({ remaining: 2500, limit: 2500 });
      await scraper.call('POST', '/api/admin/decodo-reset-stats', undefined, admin);
      expect(await scrape('leadforge_scraper_proxy_quota_limit')).toEqual(new Map([['', 10_000]]));
    });

    it('measures the jobs like every background queue: depth, age of the oldest, attempts by outcome', async () => {
      const db: Db = scraper.svc.ctx.db;
      const jobs = '{service="scraper",queue="jobs"}';
      expect((await scrape('leadforge_work_queue_depth')).get(jobs)).toBe(0);
      expect((await scrape('leadforge_work_queue_parked')).get(jobs)).toBe(0);
      const doneBefore = (await scrape('leadforge_work_attempts_total')).get('{service="scraper",queue="jobs",outcome="done"}') ?? 0;
      // Past its deadline already: the worker claims it and finishes it at once.
      await db.transaction((trx) => recordSearch(trx, { search_id: 'late-1', user_id: 'user-1', industry: 'dentist', location: 'London', quantity: 5, deadline_at: new Date(Date.now() - 1_000).toISOString() }));
      scraper.rt.worker.wake();
      await waitFor(async () => (await readJob(db, 'late-1'))?.state === 'finished', { timeoutMs: 30_000, intervalMs: 25, what: 'the late search to finish' });
      await waitFor(async () => (await scrape('leadforge_work_attempts_total')).get('{service="scraper",queue="jobs",outcome="done"}') === doneBefore + 1, { timeoutMs: 10_000, intervalMs: 25, what: 'the attempt to be counted' });
      expect((await scrape('leadforge_work_queue_depth')).get(jobs)).toBe(0);
    });

    it('counts the open jobs by state from the jobs table', async () => {
      // No worker claims them, so they stay as recorded.
      await scraper.rt.worker.stop();
      const db: Db = scraper.svc.ctx.db;
      const deadline_at = new Date(Date.now() + 60_000).toISOString();
      for (const search_id of ['open-1', 'open-2', 'open-3']) {
        await db.transaction((trx) => recordSearch(trx, { search_id, user_id: 'user-1', industry: 'dentist', location: 'London', quantity: 5, deadline_at }));
      }
      expect(await scrape('leadforge_scraper_jobs_open')).toEqual(new Map([['{state="queued"}', 3], ['{state="running"}', 0]]));
      await new JobWorker(db, { owner: 'another-replica' }, loadScraperConfig({}).jobs, () => Promise.reject(new Error('not run')), pino({ level: 'silent' })).claim();
      expect(await scrape('leadforge_scraper_jobs_open')).toEqual(new Map([['{state="queued"}', 2], ['{state="running"}', 1]]));
    });

    it('exports the 10 most requested domains, the biggest at rank 1, and drops them after a reset', async () => {
      for (let d = 1; d <= 15; d++) {
        for (let i = 0; i < d; i++) scraper.rt.usage.record({ domain: `domain-${d}.example`, ok: true, ms: 10, bytes: 100, proxied: true });
      }
      await scraper.rt.usage.flush();
      const top = await scrape('leadforge_scraper_top_domain_requests');
      expect(top.size).toBe(10);
      expect(top.get('{rank="1",domain="domain-15.example"}')).toBe(15);
      expect(top.get('{rank="10",domain="domain-6.example"}')).toBe(6);

      await scraper.call('POST', '/api/admin/decodo-reset-stats', undefined, admin);
      expect((await scrape('leadforge_scraper_top_domain_requests')).size).toBe(0);
    });

    it('still answers /metrics when the reads fail, keeping the last values', async () => {
      const down = (): never => { throw new Error('database down'); };
      const stopFailing = reportAtScrape({
        db: down as unknown as Db,
        quota: { ...memoryProxyQuota(), limit: async () => down() },
        log: scraper.svc.ctx.log,
      });
      try {
        const response = await fetch(`${scraper.svc.url}/metrics`);
        expect(response.status).toBe(200);
        const exposition = await response.text();
        expect(samples(exposition, 'leadforge_scraper_proxy_quota_limit')).toEqual(new Map([['', 10_000]]));
        expect(samples(exposition, 'leadforge_scraper_jobs_open').get('{state="running"}')).toBe(1);
      } finally {
        stopFailing();
      }
    });
  });
}

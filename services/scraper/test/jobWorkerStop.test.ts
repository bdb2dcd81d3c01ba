import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase, waitFor } from '@leadforge/testing';
import { loadScraperConfig } from '../src/config.ts';
import { readJob } from '../src/search/jobStore.ts';
import { JobWorker } from '../src/search/jobWorker.ts';
import { MIGRATIONS_DIR, requestSearch } from './support/replicas.ts';

describe('a scraper replica stopping', () => {
  let database: TestDatabase;
  beforeAll(async () => { database = await createTestDatabase('scraper', MIGRATIONS_DIR, 'pglite'); });
  afterAll(async () => { await database?.close(); });

  it('ends its stop when a run ignores the abort, leaving that search to its lease and naming it', async () => {
    const log = pino({ level: 'silent' });
    const logged = vi.spyOn(log, 'error');
    const jobs = { ...loadScraperConfig({}).jobs, pollMs: 20 };
    // A run that never ends, whatever it is told: the case a shutdown must not wait on forever.
    const worker = new JobWorker(database.db, { owner: 'replica-a' }, jobs, () => new Promise(() => undefined), log);
    worker.start();
    await requestSearch(database.db, 'search-ignoring-abort', 5);
    await waitFor(async () => worker.runningSearches.includes('search-ignoring-abort'), { timeoutMs: 10_000, intervalMs: 25, what: 'the search to run' });

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const stopped = worker.stop();
      await vi.advanceTimersByTimeAsync(10_000);
      await stopped;
    } finally {
      vi.useRealTimers();
    }
    expect(logged).toHaveBeenCalledWith({ queue: 'jobs', keys: ['search-ignoring-abort'] }, expect.stringContaining('left to their leases'));
    // Not handed back: its lease runs out, as after a crash, and another replica takes it then.
    // Still this replica's claim: its owner, then the number of the claim attempt that took it.
    expect((await readJob(database.db, 'search-ignoring-abort'))?.lease_owner).toMatch(/^replica-a:\d+$/);
  });
});

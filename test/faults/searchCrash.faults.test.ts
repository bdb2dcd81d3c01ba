/**
 * `npm run start:distributed` with several searches running when the leads process and both scraper
 * replicas are SIGKILLed (issue 23, defect 5): the launcher starts them again on their ports, the
 * restarted replicas take back the searches their dead processes held at once (the leases here are
 * made to outlast the deadline, so waiting for them would leave the searches to end with nothing),
 * the restarted leads service takes the engine's events from Kafka, and every search completes,
 * charged exactly its leads.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '@leadforge/contracts';
import { missingPrerequisites } from '../../stack/src/distributed/prerequisites.ts';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { waitFor } from '@leadforge/testing';
import { apiClient } from '../support/api.ts';
import { fixtureWebEnv, SHORT_KAFKA_SESSIONS, startDistributedStack, type DistributedStackProcess } from '../support/distributedStack.ts';
import { processAlive } from '../support/productProcess.ts';
import { creditsOf, startSearchesInFlight } from '../support/searchesInFlight.ts';

const missing = missingPrerequisites();
const skipReason = missing ? ` (skipped: ${missing.what} missing; ${missing.install})` : '';
const KILLED = ['leads', 'scraper-1', 'scraper-2'];
const SEARCHES = 4;
const QUANTITY = 10;

describe.skipIf(Boolean(missing))(`start:distributed with its leads and scraper processes killed mid-search${skipReason}`, () => {
  let web: FixtureWeb;
  let stack: DistributedStackProcess;
  let passed = false;

  async function sql<T = Record<string, unknown>>(database: string, text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${new URL(stack.component('postgres').url!).port}/${database}`, connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end().catch(() => {});
    }
  }
  const ready = async (name: string) => fetch(`${stack.component(name).url}/readyz`, { signal: AbortSignal.timeout(3000) }).then((r) => r.status === 200, () => false);

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 240, latencyMs: 200 });
    stack = await startDistributedStack({
      env: {
        ...fixtureWebEnv(web.urls),
        ...SHORT_KAFKA_SESSIONS,
        AUTH_REGISTER_PER_IP_PER_HOUR: '1000',
        SCRAPER_PER_HOST_DELAY_MS: '0',
        // Slow enough that every search is still running when the processes are killed.
        SCRAPER_PLACE_CONCURRENCY: '2',
        SCRAPER_JOB_POLL_MS: '200',
        SCRAPER_JOB_LEASE_MS: '600000',
      },
    });
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await web?.close();
    if (stack && passed) fs.rmSync(stack.dataDir, { recursive: true, force: true });
    else if (stack) console.info(`logs kept in ${path.join(stack.dataDir, 'logs')}`);
  }, 120_000);

  it('every search resumes once the launcher has restarted them: all complete, each charged exactly its leads', async () => {
    const api = apiClient(stack.url);
    const { users, searches } = await startSearchesInFlight(api, { count: SEARCHES, quantity: QUANTITY, emailPrefix: 'dist-crash' });
    type Job = { search_id: string; state: string; leads_sent: number; lease_owner: string | null };
    const jobs = async () => sql<Job>('scraper', 'SELECT search_id, state, leads_sent, lease_owner FROM scraper_jobs WHERE search_id = ANY($1)', [searches]);
    const before = await waitFor(jobs, { until: (all) => all.filter((job) => job.leads_sent > 0).length >= 2, timeoutMs: 120_000, intervalMs: 100, what: 'two searches with leads' });
    const killed = KILLED.map((name) => ({ name, pid: stack.component(name).pid }));
    for (const { pid } of killed) process.kill(pid, 'SIGKILL');
    for (const { pid } of killed) await waitFor(() => !processAlive(pid), { what: 'the killed processes to be gone' });
    expect(before.filter((job) => job.state === 'running').length).toBeGreaterThanOrEqual(2);
    // Slow sites only kept the searches running until the kill: the resumed ones need not crawl slowly.
    web.setLatency(0);

    // The launcher starts each again on its port (a new pid).
    for (const { name, pid } of killed) {
      await waitFor(async () => stack.component(name).pid !== pid && await ready(name), { timeoutMs: 120_000, intervalMs: 250, what: `${name} restarted and ready` });
    }

    type Search = { id: string; status: string; leads_count: number; credits: string; credits_used: number };
    const stored = async () => sql<Search>('leads', 'SELECT id, status, leads_count, credits, credits_used FROM lead_searches WHERE id = ANY($1) ORDER BY id', [searches]);
    const after = await waitFor(stored, { until: (all) => all.every((search) => search.status !== 'running' && search.credits !== 'held'), timeoutMs: 300_000, intervalMs: 500, what: 'every search ended and settled' });
    const finished = await jobs();
    console.info(`[distributed crash] before the kill: ${before.map((job) => job.leads_sent).join(', ')} leads; `
      + `after the restart: ${after.map((search) => `${search.status} ${search.leads_count}`).join(', ')}; owners ${finished.map((job) => job.lease_owner ?? '-').join(', ')}`);
    expect(after.map(({ status, leads_count, credits, credits_used }) => ({ status, leads_count, credits, credits_used })))
      .toEqual(searches.map(() => ({ status: 'completed', leads_count: QUANTITY, credits: 'settled', credits_used: QUANTITY })));
    const leadRows = await sql<{ search_id: string; n: string }>('leads', 'SELECT search_id, count(*) AS n FROM leads WHERE search_id = ANY($1) GROUP BY search_id', [searches]);
    expect(leadRows.map((row) => Number(row.n))).toEqual(searches.map(() => QUANTITY));
    const balances = async () => Promise.all(users.map((auth) => creditsOf(api, auth)));
    expect(await waitFor(balances, { until: (seen) => seen.every((credits) => credits === 10 - QUANTITY), timeoutMs: 60_000, intervalMs: 200, what: 'the settled balances' }))
      .toEqual(users.map(() => 10 - QUANTITY));
    for (const service of SERVICES) expect({ service, parked: Number((await sql<{ n: string }>(service, 'SELECT count(*) AS n FROM kit_dead_letters'))[0].n) }).toEqual({ service, parked: 0 });
    passed = true;
  }, 600_000);
});

// Admin read-side latency with 100,000 users and 1,000,000 activity entries in the read model:
// GET /api/admin/enhanced-stats (whole, and each section alone), user search and deep pages, and
// GET /api/admin/activity-logs (first page, a deep cursor page, one type). Runs on embedded PGlite
// (local mode) and, when TEST_DATABASE_URL (or DATABASE_URL) points at a server, on PostgreSQL
// (cluster mode). The tables are seeded with SQL, not through the bus: what is measured
// is the query side, which is the same whichever way the rows arrived.
import autocannon from 'autocannon';
import authService from '@leadforge/auth';
import adminService from '@leadforge/admin';
import type { RunningService } from '@leadforge/kit/service';
import type { Db } from '@leadforge/kit/db';
import { createMemoryBus } from '@leadforge/kit/events';
import { startServiceForTest, type TestDatabaseKind, postgresConfigured } from '@leadforge/testing';
import { reportFigures } from './benchResults.ts';

const USERS = Number(process.env.BENCH_ADMIN_USERS ?? 100_000);
const ACTIVITY = Number(process.env.BENCH_ADMIN_ACTIVITY ?? 1_000_000);
const CONTACTS = 5_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const LOAD_SECONDS = Number(process.env.BENCH_DURATION_S ?? 8);
const ADMIN_EMAIL = 'bench-admin@example.com';


async function seed(db: Db): Promise<Record<string, number>> {
  const started = Date.now();
  // Users over the last year; one in fifty an admin, one in a hundred inactive, one in two hundred deleted.
  await db.raw(`
    INSERT INTO rm_users (user_id, name, email, role, status, credits, created_at)
    SELECT md5('user' || g)::uuid::text, 'Bench User ' || g, 'user' || g || '@bench.example',
           CASE WHEN g % 50 = 0 THEN 'admin' ELSE 'user' END,
           CASE WHEN g % 200 = 0 THEN 'deleted' WHEN g % 100 = 0 THEN 'inactive' ELSE 'active' END,
           (g * 37) % 1200, now() - (g * interval '5 minutes')
    FROM generate_series(1, ${USERS}) AS g`);
  // Activity: four scrapes to one payment, one entry every 30 seconds back in time.
  await db.raw(`
    INSERT INTO rm_activity (event_id, type, user_id, occurred_at, ref, results_count, credits, amount)
    SELECT md5('event' || g)::uuid::text,
           CASE WHEN g % 5 = 0 THEN 'payment' ELSE 'scrape' END,
           md5('user' || (1 + g % ${USERS}))::uuid::text,
           now() - (g * interval '30 seconds'),
           CASE WHEN g % 5 = 0 THEN 'purchase-' || g ELSE 'search-' || g END,
           CASE WHEN g % 5 = 0 THEN NULL ELSE 1 + g % 50 END,
           CASE WHEN g % 5 = 0 THEN 330 ELSE 1 + g % 50 END,
           CASE WHEN g % 5 = 0 THEN 49 ELSE NULL END
    FROM generate_series(1, ${ACTIVITY}) AS g`);
  // The running totals the projection keeps, recomputed for the seeded rows.
  await db.raw('DELETE FROM rm_user_totals');
  await db.raw(`
    INSERT INTO rm_user_totals (id, listed, admins, inactive, credits)
    SELECT 1,
           count(*) FILTER (WHERE created_at IS NOT NULL AND status <> 'deleted'),
           count(*) FILTER (WHERE created_at IS NOT NULL AND status <> 'deleted' AND role = 'admin'),
           count(*) FILTER (WHERE created_at IS NOT NULL AND status = 'inactive'),
           coalesce(sum(credits), 0)
    FROM rm_users`);
  await db.raw(`
    INSERT INTO rm_purchases (purchase_id, user_id, plan_id, amount, credits, completed_at)
    SELECT ref, user_id, 'growth', amount, credits, occurred_at FROM rm_activity WHERE type = 'payment'`);
  // Recomputed from the rows (the bench admin's own signup is already in rm_daily and in rm_users).
  await db.raw('DELETE FROM rm_daily');
  await db.raw(`
    INSERT INTO rm_daily (day, signups, purchases, revenue, scrapes, leads, credits_used)
    SELECT day, sum(signups), sum(purchases), sum(revenue), sum(scrapes), sum(leads), sum(credits_used) FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, 1 AS signups, 0 AS purchases, 0 AS revenue, 0 AS scrapes, 0 AS leads, 0 AS credits_used FROM rm_users
      UNION ALL
      SELECT (occurred_at AT TIME ZONE 'UTC')::date, 0,
             CASE WHEN type = 'payment' THEN 1 ELSE 0 END, coalesce(amount, 0),
             CASE WHEN type = 'scrape' THEN 1 ELSE 0 END, coalesce(results_count, 0),
             CASE WHEN type = 'scrape' THEN credits ELSE 0 END
      FROM rm_activity
    ) AS facts GROUP BY day`);
  await db.raw(`
    INSERT INTO rm_contact_submissions (submission_id, name, email, message, submitted_at)
    SELECT 'contact-' || g, 'Sender ' || g, 'sender' || g || '@bench.example', 'Message number ' || g, now() - (g * interval '1 hour')
    FROM generate_series(1, ${CONTACTS}) AS g`);
  await db.raw('ANALYZE');
  const [{ users }] = (await db.raw('SELECT count(*)::int AS users FROM rm_users')).rows;
  const [{ activity }] = (await db.raw('SELECT count(*)::int AS activity FROM rm_activity')).rows;
  return { users, activity, seed_s: Math.round((Date.now() - started) / 100) / 10 };
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

async function latency(url: string, token: string): Promise<{ p50_ms: number; p95_ms: number; max_ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < SAMPLES + 3; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body}`);
    if (i >= 3) times.push(performance.now() - t); // the first few warm caches and plans
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  return { p50_ms: percentile(times, 50), p95_ms: percentile(times, 95), max_ms: percentile(times, 100), bytes };
}

async function throughput(url: string, token: string) {
  const r = await autocannon({ url, connections: 8, duration: LOAD_SECONDS, headers: { authorization: `Bearer ${token}` } });
  return { requests_per_s: Math.round(r.requests.average * 10) / 10, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx, errors: r.errors };
}

async function measure(kind: TestDatabaseKind) {
  const bus = createMemoryBus();
  const services: RunningService[] = [];
  try {
    const auth = await startServiceForTest(authService, { kind: 'pglite', bus, env: { ADMIN_EMAILS: ADMIN_EMAIL, LOG_LEVEL: 'fatal' } });
    services.push(auth);
    const admin = await startServiceForTest(adminService, { kind, bus, env: { AUTH_URL: auth.url, LOG_LEVEL: 'fatal' } });
    services.push(admin);
    const reg = await fetch(`${auth.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Admin', email: ADMIN_EMAIL, password: 'secret123' }),
    });
    const registered = (await reg.json()) as { access_token: string; user: { id: string } };
    const token = registered.access_token;
    // ADMIN_EMAILS waits for a verified address; the operator's promotion (as `npm run user:promote`) does not.
    await fetch(`${auth.url}/internal/users/${registered.user.id}/role`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': auth.ctx.config.internalToken },
      body: JSON.stringify({ role: 'admin' }),
    });
    const seeded = await seed(admin.ctx.db);
    const base = `${admin.url}/api/admin`;

    // A cursor 200 pages (10,000 entries) deep, reached the way the panel reaches it.
    let cursor = '';
    for (let page = 0; page < 200; page++) {
      const res = await fetch(`${base}/activity-logs?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
      cursor = ((await res.json()) as { next_cursor: string }).next_cursor;
    }

    const figures = {
      ...seeded,
      enhanced_stats_all_sections: await latency(`${base}/enhanced-stats`, token),
      enhanced_stats_overview_only: await latency(`${base}/enhanced-stats?include=stats`, token),
      users_first_page: await latency(`${base}/enhanced-stats?include=users`, token),
      users_page_1000: await latency(`${base}/enhanced-stats?include=users&users_page=1000&users_page_size=50`, token),
      users_search_substring: await latency(`${base}/enhanced-stats?include=users&search=user4242`, token),
      users_role_admins: await latency(`${base}/enhanced-stats?include=users&role=admin`, token),
      activity_first_page: await latency(`${base}/activity-logs?limit=50`, token),
      activity_page_200_by_cursor: await latency(`${base}/activity-logs?limit=50&cursor=${cursor}`, token),
      activity_payments_only: await latency(`${base}/activity-logs?type=payment&limit=50`, token),
      enhanced_stats_under_load: await throughput(`${base}/enhanced-stats`, token),
    };
    // Requests autocannon left in flight finish before the databases close.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return figures;
  } finally {
    for (const s of services.reverse()) await s.stop();
    await bus.close();
  }
}

const results: Record<string, unknown> = {
  samples_per_figure: SAMPLES,
  note: 'sequential requests straight to the admin service (requireAdmin re-reads the caller from auth on every call); under_load: autocannon, 8 connections',
};
results.pglite = await measure('pglite');
console.log('pglite', JSON.stringify(results.pglite));
results.postgres = postgresConfigured ? await measure('postgres') : 'skipped: set TEST_DATABASE_URL to a PostgreSQL server';
reportFigures('adminStats', results);

// Monitors due at once on one machine (issue 25): BENCH_MONITORS (default 1,000) monitors of one
// area, all made due at the same moment, run by the product's scheduler (MONITORS_TICK_SECONDS 1, no
// spread, so the figure is the machine's and not the spread's). Figures: time until every monitor has
// run, runs per minute, double runs (runs or searches beyond one per monitor and due time), and the
// provider requests a second round, with nothing new in the area, costs against the first (target:
// <= 10%: an unchanged area should not be crawled again). Provider requests are the maps source's
// answers (Nominatim, Overpass) and the business-site fetches: every outbound request of the engine.
// `BENCH_MONITORS=250 npm run bench -- monitors` runs fewer. Each round prints its progress every 30 s
// (runs started, searches settled, provider requests), so a slow round can be read before it ends.
import { waitFor } from '@leadforge/testing';
import { bearer } from '../test/support/api.ts';
import { startProductAround } from '../test/support/productAround.ts';
import { reportFigures } from './benchResults.ts';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const PER_USER = 100;

const product = await startProductAround({
  env: {
    MONITORS_TICK_SECONDS: '1', MONITORS_SPREAD_SECONDS: '0', MONITORS_RUNS_AT_ONCE: '8', LEADS_MAX_RUNNING_PER_USER: '100', LEADS_STARTS_PER_MINUTE: '10000',
    // Every run starts within a minute or two and waits for the engine: with the 120 s default, the
    // engine would end the late ones at their deadline unfetched, and their zero requests would flatter the figure.
    LEADS_SEARCH_DEADLINE_SECONDS: '3600',
  },
});
product.setSource('twelve');
const leads = product.stack.services.find((service) => service.name === 'leads')!;
const db = leads.ctx.db;

const ids: string[] = [];
for (let u = 0; u * PER_USER < MONITORS; u++) {
  const user = await product.register(`bench-monitors-${u}@example.com`);
  await product.setCredits(user.id, user.token, 100_000);
  const count = Math.min(PER_USER, MONITORS - u * PER_USER);
  for (let i = 0; i < count; i++) {
    const res = await product.api('POST', '/api/monitors', { industry: 'Dentists', location: 'London', max_leads_per_run: 20, frequency: 'daily' }, bearer(user.token));
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push(res.body.id);
  }
}

/** Every outbound request the engine made (maps source and business sites; its usage totals, flushed each second). */
const providerRequests = async () => {
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const row = await product.stack.services.find((s) => s.name === 'scraper')!.ctx.db('scraper_usage_totals').first('successful', 'failed');
  return Number(row.successful) + Number(row.failed);
};

/** The monitors' searches by how they ended (`completed/done`, `completed/deadline`...), so a round's requests are known to be full runs. */
const outcomes = async () => {
  const rows: { status: string; reason: string | null; count: string | number }[] = await db('lead_searches').whereNotNull('monitor_id').groupBy('status', 'reason').select('status', 'reason').count({ count: '*' });
  return new Map(rows.map((row) => [`${row.status}/${row.reason}`, Number(row.count)]));
};
const outcomesSince = (before: Map<string, number>, after: Map<string, number>) =>
  Object.fromEntries([...after].map(([key, count]) => [key, count - (before.get(key) ?? 0)]).filter(([, count]) => Number(count) > 0));

/** Makes every monitor due now and waits until each has run once more and its search has settled. */
async function round(name: string, expectedRuns: number) {
  const before = await providerRequests();
  const outcomesBefore = await outcomes();
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let allStartedSeconds: number | undefined;
  let reportedAt = 0;
  await db('monitors').whereIn('id', ids).update({ next_run_at: db.fn.now(), next_attempt_at: db.fn.now() });
  await waitFor(async () => {
    const [{ runs }] = await db('monitor_runs').whereNotNull('search_id').count({ runs: '*' });
    const [{ open }] = await db('lead_searches').whereNotNull('monitor_id').whereNot({ credits: 'settled' }).whereNot({ credits: 'released' }).count({ open: '*' });
    const state = { runs: Number(runs), open: Number(open) };
    if (state.runs >= expectedRuns) allStartedSeconds ??= elapsed();
    if (elapsed() - reportedAt >= 30) {
      reportedAt = elapsed();
      const row = await product.stack.services.find((s) => s.name === 'scraper')!.ctx.db('scraper_usage_totals').first('successful', 'failed');
      const settled = state.runs - (expectedRuns - MONITORS) - state.open;
      console.log(`${name} round, ${Math.round(elapsed())} s: ${state.runs - (expectedRuns - MONITORS)} of ${MONITORS} runs started, ${settled} settled, ${Number(row.successful) + Number(row.failed) - before} provider requests`);
    }
    return state;
  }, { until: (s) => s.runs >= expectedRuns && s.open === 0, timeoutMs: 3 * 3600_000, intervalMs: 1000, what: `${expectedRuns} monitor runs, every search settled` });
  const seconds = elapsed();
  return { seconds, allStartedSeconds: allStartedSeconds ?? seconds, requests: (await providerRequests()) - before, outcomes: outcomesSince(outcomesBefore, await outcomes()) };
}

const first = await round('first', MONITORS);
const second = await round('second', 2 * MONITORS);
const [{ doubled }] = await db('monitor_runs').whereIn('monitor_id', ids).groupBy('monitor_id', 'due_at').havingRaw('count(*) > 1').count({ doubled: '*' }).then((rows) => (rows.length ? rows : [{ doubled: 0 }]));
const [{ searches }] = await db('lead_searches').whereIn('monitor_id', ids).count({ searches: '*' });
const [{ delivered }] = await db('lead_searches').whereIn('monitor_id', ids).sum({ delivered: 'leads_count' });
await product.close();

reportFigures('monitors', {
  monitors: MONITORS,
  first_round_seconds: Math.round(first.seconds),
  first_round_all_started_seconds: Math.round(first.allStartedSeconds),
  first_round_runs_per_minute: Math.round((MONITORS / first.seconds) * 60),
  first_round_searches: first.outcomes,
  second_round_seconds: Math.round(second.seconds),
  second_round_all_started_seconds: Math.round(second.allStartedSeconds),
  second_round_runs_per_minute: Math.round((MONITORS / second.seconds) * 60),
  second_round_searches: second.outcomes,
  double_runs: Number(doubled),
  searches_per_monitor: Number(searches) / MONITORS,
  leads_delivered: Number(delivered),
  provider_requests_first_round: first.requests,
  provider_requests_second_round: second.requests,
  provider_requests_per_run_first_round: Number((first.requests / MONITORS).toFixed(1)),
  provider_requests_per_run_second_round: Number((second.requests / MONITORS).toFixed(1)),
  // Four places: at 1,000 monitors the share sits at 10% itself (3,000 of 29,970 printed as 0.1).
  second_round_share_of_first: Number((second.requests / Math.max(1, first.requests)).toFixed(4)),
});

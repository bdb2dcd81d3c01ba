// Monitors due at once on one machine (issue 25): BENCH_MONITORS (default 1,000) monitors of one
// area, all made due at the same moment, run by the product's scheduler (MONITORS_TICK_SECONDS 1, no
// spread, so the figure is the machine's and not the spread's). Figures: time until every monitor has
// run, runs per minute, double runs (runs or searches beyond one per monitor and due time), and the
// provider requests a second round, with nothing new in the area, costs against the first (target:
// <= 10%: an unchanged area should not be crawled again). Provider requests are the maps source's
// answers (Nominatim, Overpass) and the business-site fetches: every outbound request of the engine.
import { waitFor } from '@leadforge/kit/testing/waitFor.ts';
import { bearer } from '../test/support/api.ts';
import { startProductAround } from '../test/support/productAround.ts';
import { reportFigures } from './benchResults.ts';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const PER_USER = 100;

const product = await startProductAround({
  env: { MONITORS_TICK_SECONDS: '1', MONITORS_SPREAD_SECONDS: '0', MONITORS_RUNS_AT_ONCE: '8', LEADS_MAX_RUNNING_PER_USER: '100', LEADS_STARTS_PER_MINUTE: '10000' },
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

/** Makes every monitor due now and waits until each has run once more and its search has settled. */
async function round(expectedRuns: number) {
  const before = await providerRequests();
  const started = performance.now();
  await db('monitors').whereIn('id', ids).update({ next_run_at: db.fn.now(), next_attempt_at: db.fn.now() });
  await waitFor(async () => {
    const [{ runs }] = await db('monitor_runs').whereIn('monitor_id', ids).count({ runs: '*' });
    const [{ open }] = await db('lead_searches').whereIn('monitor_id', ids).whereNot({ credits: 'settled' }).whereNot({ credits: 'released' }).count({ open: '*' });
    return { runs: Number(runs), open: Number(open) };
  }, { until: (s) => s.runs >= expectedRuns && s.open === 0, timeoutMs: 3 * 3600_000, intervalMs: 1000, what: `${expectedRuns} monitor runs, every search settled` });
  const seconds = (performance.now() - started) / 1000;
  return { seconds, requests: (await providerRequests()) - before };
}

const first = await round(MONITORS);
const second = await round(2 * MONITORS);
const [{ doubled }] = await db('monitor_runs').whereIn('monitor_id', ids).groupBy('monitor_id', 'due_at').havingRaw('count(*) > 1').count({ doubled: '*' }).then((rows) => (rows.length ? rows : [{ doubled: 0 }]));
const [{ searches }] = await db('lead_searches').whereIn('monitor_id', ids).count({ searches: '*' });
const [{ delivered }] = await db('lead_searches').whereIn('monitor_id', ids).sum({ delivered: 'leads_count' });
await product.close();

reportFigures('monitors', {
  monitors: MONITORS,
  first_round_seconds: Math.round(first.seconds),
  first_round_runs_per_minute: Math.round((MONITORS / first.seconds) * 60),
  second_round_seconds: Math.round(second.seconds),
  second_round_runs_per_minute: Math.round((MONITORS / second.seconds) * 60),
  double_runs: Number(doubled),
  searches_per_monitor: Number(searches) / MONITORS,
  leads_delivered: Number(delivered),
  provider_requests_first_round: first.requests,
  provider_requests_second_round: second.requests,
  second_round_share_of_first: Number((second.requests / Math.max(1, first.requests)).toFixed(3)),
});

// `npm start` as a user meets it (built web, warm disk): time from launching its node command line
// to the first 200 from `/` and from `/api/auth/me`, resident memory of its whole process tree idle
// and at the peak of a 200-lead search (fixture web in a child process, 300 ms an answer; websites
// reached through its forward proxy). A first start on an empty data folder is measured too, and the
// peak memory of a vitest run: BENCH_SUITE names its files (default: the tests that start the local
// stack), BENCH_SUITE=all runs the whole suite (a machine of its own: it takes every core), none skips it.
// Targets: ready < 6 s, idle < 700 MB, search peak < 1 GB.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureWebAt } from '../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { freePort } from '../stack/src/freePort.ts';
import { buildWebIfStale } from '../scripts/webBuild.mjs';
import { buildServicesIfStale } from '../scripts/buildServices.mjs';
import { startFixtureWebProcess } from '../services/scraper/test/fixtureWeb/fixtureWebProcess.ts';
import { treeCpuSeconds, treeRssMb } from './support/processTree.ts';
import { apiClient, bearer } from '../test/support/api.ts';
import { isolatedEnv, nodeArgsOf } from '../test/support/productProcess.ts';
import { fixtureWebEnv } from '../test/support/distributedStack.ts';
import { reportFigures } from './benchResults.ts';
import { registerAdmin } from '../test/support/verifiedAdmin.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const PLACES = 200;
const ADMIN = 'bench-startup-admin@example.com';
const USER = 'bench-startup@example.com';
const IDLE_SETTLE_MS = 15_000;

const mb = (n: number) => Math.round(n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Peak resident memory of a vitest run's process tree (sampled every 200 ms) and whether it passed. */
async function suitePeak(files: string[]): Promise<{ files: string[]; peak_rss_mb: number; seconds: number; exit_code: number | null }> {
  const started = performance.now();
  const child = spawn('npx', ['vitest', 'run', ...files], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, LOG_LEVEL: 'error' } });
  let peak = 0;
  const sampler = setInterval(() => { peak = Math.max(peak, treeRssMb(child.pid!)); }, 200);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  return { files: files.length ? files : ['(all)'], peak_rss_mb: mb(peak), seconds: Math.round((performance.now() - started) / 100) / 10, exit_code: code };
}

const SUITE_FILES = process.env.BENCH_SUITE ?? 'test/system/foundation.test.ts stack/test/localEngines.test.ts';
/** The vitest files to measure: [] is the whole suite; none (BENCH_SUITE=none) skips the measure. */
const SUITE = SUITE_FILES === 'none' ? undefined : SUITE_FILES === 'all' ? [] : SUITE_FILES.split(/\s+/).filter(Boolean);

interface Launched { child: ChildProcess; launchedAt: number; exited: Promise<number | null>; output: () => string }

function launch(env: NodeJS.ProcessEnv): Launched {
  const launchedAt = performance.now();
  const child = spawn(process.execPath, nodeArgsOf('start'), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, launchedAt, exited, output: () => output };
}

/** Milliseconds from launch to the first 200 of `url` (polled every 20 ms). */
async function firstOk(run: Launched, url: string, headers: Record<string, string> = {}): Promise<number> {
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`npm start exited:\n${run.output()}`);
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return Math.round(performance.now() - run.launchedAt);
    } catch { /* not listening yet */ }
    if (performance.now() - run.launchedAt > 180_000) throw new Error(`no 200 from ${url} within 180 s:\n${run.output()}`);
    await sleep(20);
  }
}

async function stop(run: Launched): Promise<void> {
  run.child.kill('SIGINT');
  await run.exited;
}

buildWebIfStale();
await buildServicesIfStale();
const { port: webPort, stop: stopFixtureWeb } = await startFixtureWebProcess({ sites: PLACES, uniformSites: true, placesPerArea: PLACES, latencyMs: LATENCY_MS });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-bench-startup-'));
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = isolatedEnv(port, dataDir, 'warn', { ...fixtureWebEnv(fixtureWebAt(webPort).urls), ADMIN_EMAILS: ADMIN, SKIP_WEB_BUILD: 'true' });
  const api = apiClient(base);

  // First start: empty data folder (every database created and migrated).
  const first = launch(env);
  const firstReadyMs = await firstOk(first, `${base}/`);
  await sleep(IDLE_SETTLE_MS);
  const firstIdleMb = treeRssMb(first.child.pid!);
  const admin = await registerAdmin(api, dataDir, { name: 'Bench Admin', email: ADMIN, password: 'secret123' });
  const user = await api('POST', '/api/auth/register', { name: 'Bench User', email: USER, password: 'secret123' });
  if (user.status !== 201) throw new Error(`register: ${user.status}`);
  const credited = await api('POST', '/api/admin/update-credits', { user_id: user.body.user.id, credits_change: PLACES }, bearer(admin.token));
  if (credited.status !== 200) throw new Error(`update-credits: ${credited.status} ${JSON.stringify(credited.body)}`);
  await stop(first);

  // The start measured: the same data folder, warm disk, as every start after the first.
  const run = launch(env);
  const [rootMs, meMs] = await Promise.all([firstOk(run, `${base}/`), firstOk(run, `${base}/api/auth/me`, bearer(user.body.access_token))]);
  // Less dependent on the machine's other load than the times: what start-up cost in CPU.
  const cpuToReady = treeCpuSeconds(run.child.pid!);
  // Idle once settled: what start-up left behind, past work started after the first answers.
  let settlingPeakMb = 0;
  for (let waited = 0; waited < IDLE_SETTLE_MS; waited += 500) {
    await sleep(500);
    settlingPeakMb = Math.max(settlingPeakMb, treeRssMb(run.child.pid!));
  }
  const idleMb = treeRssMb(run.child.pid!);

  let peakMb = idleMb;
  const sampler = setInterval(() => { peakMb = Math.max(peakMb, treeRssMb(run.child.pid!)); }, 200);
  const started = performance.now();
  const search = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'area-0', quantity: PLACES }, bearer(user.body.access_token));
  const searchSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakMb = Math.max(peakMb, treeRssMb(run.child.pid!));
  if (search.status !== 200) throw new Error(`search: ${search.status} ${JSON.stringify(search.body).slice(0, 300)}`);
  await stop(run);
  const suite = SUITE ? await suitePeak(SUITE) : 'skipped (BENCH_SUITE=none)';

  console.log(`npm start: first 200 from / in ${rootMs} ms, from /api/auth/me in ${meMs} ms (${cpuToReady.toFixed(1)} s of CPU); ${mb(idleMb)} MB idle, ${mb(peakMb)} MB at the peak of a ${PLACES}-lead search`);
  reportFigures('startup', {
    ready_root_ms: rootMs,
    ready_auth_me_ms: meMs,
    cpu_seconds_to_ready: Math.round(cpuToReady * 10) / 10,
    idle_rss_mb: mb(idleMb),
    settling_peak_rss_mb: mb(settlingPeakMb),
    search_peak_rss_mb: mb(peakMb),
    search: { places: PLACES, leads: search.body.leads?.length ?? 0, seconds: Math.round(searchSeconds * 10) / 10, fixture_latency_ms: LATENCY_MS },
    first_start: { ready_root_ms: firstReadyMs, idle_rss_mb: mb(firstIdleMb) },
    test_suite: suite,
    targets: { ready_ms: 6000, idle_rss_mb: 700, search_peak_rss_mb: 1000 },
    note: 'times from launching `node --conditions=leadforge-dist scripts/start.mjs` (what `npm start` runs) with the web already built; the measured start is the second on the same data folder (warm disk); idle is 15 s after the first answers (settling peak: the most in those 15 s); memory is the resident set of the whole process tree; the machine is shared, so times vary with its load',
  });
} finally {
  await stopFixtureWeb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

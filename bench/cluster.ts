// The single-node Kubernetes cluster of `npm run cluster:up` on this machine:
//  - cached cluster:up (the toolchain built, a fresh data folder) to every pod Ready, and a second
//    cluster:up on the running cluster (what a configuration change costs);
//  - a 50-lead search through the cluster's gateway, and the same search on `start:distributed`
//    (the fixture web at the same latency, each product alone on the machine), as a ratio;
//  - the scraper from its minimum to more replicas after a burst of searches starts (KEDA);
//  - cluster:down.
// With BENCH_CLUSTER_COLD=1 it first builds the whole toolchain into an empty cache folder (the cold
// figure: tens of minutes here). Prints its figures and writes bench/results/cluster.*.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFixtureWebProcess } from '../services/scraper/test/fixtureWeb/fixtureWebProcess.ts';
import { readFeed } from '../services/leads/test/support/feedReader.ts';
import { clusterCommand, kubectlRunner, readClusterInfo, serveFixtureZone } from '../test/cluster/support/clusterCommands.ts';
import { apiClient, bearer } from '../test/support/api.ts';
import { fixtureWebEnv, startDistributedStack } from '../test/support/distributedStack.ts';
import { freePort } from '../stack/src/freePort.ts';
import { reportFigures } from './benchResults.ts';

const LEADS = 50;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 100);
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;
let searchers = 0;

/**
 * Registers a searcher, buys it a pack through billing's test checkout (no administrator needed, as
 * the Credits page does it), and times one streamed search of LEADS leads. A search that does not
 * complete throws with what it said.
 */
async function timedSearch(url: string, location: string): Promise<{ seconds: number; leads: number }> {
  const api = apiClient(url);
  const user = await api('POST', '/api/auth/register', { name: 'Bench Searcher', email: `bench-${++searchers}-${Date.now()}@example.com`, password: 'secret123' });
  if (user.status !== 201) throw new Error(`register: ${user.status} ${JSON.stringify(user.body)}`);
  const auth = bearer(user.body.access_token);
  const created = await api('POST', '/api/payments/create', { plan_id: 'starter' }, auth);
  const approved = await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
  const executed = await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, auth);
  if (approved.status !== 200 || !executed.body?.success) throw new Error(`test checkout: ${created.status} ${approved.status} ${JSON.stringify(executed.body)}`);
  const started = performance.now();
  const search = await api('POST', '/api/lead-searches', { industry: 'Dentists', location, quantity: LEADS }, auth);
  if (search.status < 200 || search.status > 299) throw new Error(`search start in ${location}: ${search.status} ${JSON.stringify(search.body)}`);
  const { messages } = await readFeed(`${url}/api/lead-searches/${search.body.id}/events`, auth, { until: (m) => m.event === 'finished', timeoutMs: 600_000 });
  const finished = messages.find((m) => m.event === 'finished')?.data as { status?: string; code?: string; error?: string } | undefined;
  if (finished?.status !== 'completed') throw new Error(`search in ${location} ended ${JSON.stringify(finished)}`);
  return { seconds: seconds(started), leads: messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads).length };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-bench-cluster-'));
fs.chmodSync(dataDir, 0o755);
const cacheDir = process.env.BENCH_CLUSTER_COLD ? fs.mkdtempSync(path.join(os.tmpdir(), 'lf-bench-cold-cache-')) : undefined;
const env: NodeJS.ProcessEnv = {
  ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), AUTH_REGISTER_PER_IP_PER_HOUR: '100000',
  ...(cacheDir ? { LEADFORGE_CACHE_DIR: cacheDir } : {}),
};
const figures: Record<string, unknown> = { latencyMs: LATENCY_MS, leads: LEADS, cores: os.cpus().length };

try {
  let started = performance.now();
  const first = await clusterCommand('up', env);
  figures[cacheDir ? 'coldUpSeconds' : 'cachedUpSeconds'] = seconds(started);
  console.log(`cluster:up (${cacheDir ? 'cold: toolchain built' : 'toolchain cached'}, fresh data folder): every pod Ready in ${first.seconds.toFixed(0)} s`);
  if (cacheDir) {
    // The cold run built the cache: down, a fresh data folder, and up again is the cached figure.
    await clusterCommand('down', env);
    for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    started = performance.now();
    await clusterCommand('up', env);
    figures.cachedUpSeconds = seconds(started);
    console.log(`cluster:up (toolchain cached, fresh data folder): every pod Ready in ${figures.cachedUpSeconds} s`);
  }
  const info = readClusterInfo(dataDir);
  const kubectl = kubectlRunner(info);

  const web = await startFixtureWebProcess({ sites: LEADS * 4, uniformSites: true, latencyMs: LATENCY_MS, host: info.node_ip }, { netns: info.netns });
  const providerEnv = { PLACES_SOURCES: 'osm', NOMINATIM_URL: web.urls.nominatim, OVERPASS_URL: web.urls.overpass, DECODO_PROXY_URL: web.urls.proxy, SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true', SCRAPER_PER_HOST_DELAY_MS: '0' };
  started = performance.now();
  await clusterCommand('up', { ...env, ...providerEnv });
  figures.reconfigureSeconds = seconds(started);
  console.log(`cluster:up again with provider variables (helm upgrade, every Deployment rolled): ${figures.reconfigureSeconds} s`);
  // After the last cluster:up, which applies CoreDNS's own configuration (it dropped a zone added before it).
  await serveFixtureZone(info, kubectl);

  await timedSearch(info.gateway, 'area-warm-up');
  const inCluster = await timedSearch(info.gateway, 'area-cluster');
  figures.clusterSearch = inCluster;
  console.log(`${LEADS}-lead search through the cluster: ${inCluster.leads} leads in ${inCluster.seconds} s`);

  // The burst: searches at once, and how long until KEDA has added scraper replicas.
  const scraper = async () => JSON.parse(await kubectl(['get', 'deployment', 'scraper', '-n', 'leadforge', '-o', 'json'])).spec.replicas as number;
  const min = await scraper();
  const burstStarted = performance.now();
  const burst = Promise.all(Array.from({ length: 12 }, (_, i) => timedSearch(info.gateway, `area-burst-${i}`)));
  // Handled here so a failure while the loop below waits is not an unhandled rejection that exits before `finally` stops the cluster; `await burst` still throws it.
  burst.catch(() => undefined);
  let scaledTo = min;
  while (scaledTo <= min && performance.now() - burstStarted < 300_000) {
    await new Promise((r) => setTimeout(r, 1000));
    scaledTo = await scraper();
  }
  figures.scaleUp = { from: min, to: scaledTo, seconds: seconds(burstStarted) };
  console.log(`scraper ${min} -> ${scaledTo} replicas ${seconds(burstStarted)} s after a burst of 12 searches started`);
  await burst;

  started = performance.now();
  await clusterCommand('down', env);
  figures.downSeconds = seconds(started);
  await web.stop();

  // The same search on the production shape without Kubernetes, alone on the machine.
  const distWeb = await startFixtureWebProcess({ sites: LEADS * 4, uniformSites: true, latencyMs: LATENCY_MS });
  const stack = await startDistributedStack({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'lf-bench-dist-')), env: { AUTH_REGISTER_PER_IP_PER_HOUR: '100000', ...fixtureWebEnv(distWeb.urls), SCRAPER_PER_HOST_DELAY_MS: '0', LOG_LEVEL: 'warn' } });
  try {
    await timedSearch(stack.url, 'area-warm-up');
    figures.distributedSearch = await timedSearch(stack.url, 'area-distributed');
  } finally {
    await stack.stop();
    await distWeb.stop();
  }
  const ratio = Math.round((inCluster.seconds / (figures.distributedSearch as { seconds: number }).seconds) * 100) / 100;
  figures.clusterToDistributedRatio = ratio;
  console.log(`the same search on start:distributed: ${(figures.distributedSearch as { seconds: number }).seconds} s (cluster / distributed = ${ratio})`);
  reportFigures('cluster', figures);
} finally {
  // Whatever failed, nothing of the cluster stays up (down says so when none runs).
  await clusterCommand('down', env).catch((err: unknown) => console.error(`cluster:down after the bench: ${String(err)}`));
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true });
}

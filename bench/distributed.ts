// The production topology (`npm run start:distributed`) on this machine: time from start to ready,
// resident memory of all its processes (each server with its children: PostgreSQL backends, nginx
// workers), and enriched leads per second for 200-place searches on the fixture web at 300 ms per
// answer with 1, 2 and 3 scraper replicas, with the scaling efficiency as a ratio to one replica.
// Websites are reached through the fixture web's forward proxy (as through Decodo's); the fixture
// web runs in a child process so its CPU is not the topology's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureWebAt } from '../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { startFixtureWebProcess } from '../services/scraper/test/fixtureWeb/fixtureWebProcess.ts';
import { treeRssMb } from './support/processTree.ts';
import { apiClient, bearer } from '../test/support/api.ts';
import { fixtureWebEnv, startDistributedStack } from '../test/support/distributedStack.ts';
import { reportFigures } from './benchResults.ts';
import { registerAdmin } from '../test/support/verifiedAdmin.ts';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const PLACES = 200;
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 3);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2,3').split(',').map(Number);
const ADMIN = 'bench-admin@example.com';

await main();

async function scenario(port: number, replicas: number) {
  const { urls } = fixtureWebAt(port);
  const t0 = performance.now();
  const stack = await startDistributedStack({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'lf-bench-dist-')),
    env: {
      SCRAPER_REPLICAS: String(replicas),
      ADMIN_EMAILS: ADMIN,
      AUTH_REGISTER_PER_IP_PER_HOUR: '1000',
      ...fixtureWebEnv(urls),
      LOG_LEVEL: 'warn',
    },
  });
  const readySeconds = (performance.now() - t0) / 1000;
  try {
    const api = apiClient(stack.url);
    const components = stack.topology().components;
    const idleMb = components.reduce((sum, c) => sum + treeRssMb(c.pid), 0);
    const adminAuth = bearer((await registerAdmin(api, stack.dataDir, { name: 'Bench Admin', email: ADMIN, password: 'secret123' })).token);
    // One searcher per search: a user runs at most two searches at once.
    const searchers: Record<string, string>[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const user = await api('POST', '/api/auth/register', { name: `Bench ${i}`, email: `bench-${i}@example.com`, password: 'secret123' });
      const adjusted = await api('POST', '/api/admin/update-credits', { user_id: user.body.user.id, credits_change: PLACES }, adminAuth);
      if (adjusted.status !== 200) throw new Error(`update-credits: ${adjusted.status} ${JSON.stringify(adjusted.body)}`);
      searchers.push(bearer(user.body.access_token));
    }

    let peakMb = idleMb;
    const sampler = setInterval(() => { peakMb = Math.max(peakMb, components.reduce((sum, c) => sum + treeRssMb(c.pid), 0)); }, 1000);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: SEARCHES }, (_, i) =>
      api('POST', '/api/generate-leads', { industry: 'Dentists', location: `area-${i}`, quantity: PLACES }, searchers[i])));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const leads = answers.reduce((sum, a) => sum + (a.body.leads?.length ?? 0), 0);
    const failed = answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
    return {
      replicas,
      readySeconds: Math.round(readySeconds * 10) / 10,
      processes: components.length,
      idleMb: Math.round(idleMb),
      peakMb: Math.round(peakMb),
      searches: SEARCHES,
      leads,
      failed,
      seconds: Math.round(seconds * 10) / 10,
      leadsPerSecond: Math.round((leads / seconds) * 10) / 10,
    };
  } finally {
    await stack.stop();
  }
}

async function main() {
  const { port, stop: stopFixtureWeb } = await startFixtureWebProcess({ sites: PLACES * SEARCHES, uniformSites: true, placesPerArea: PLACES, latencyMs: LATENCY_MS });
  try {
    const results = [];
    for (const replicas of REPLICAS) {
      const result = await scenario(port, replicas);
      if (result.failed.length) console.log(`  failed searches: ${result.failed.join('; ')}`);
      console.log(`${replicas} scraper replica(s): ready in ${result.readySeconds} s, ${result.idleMb} MB idle / ${result.peakMb} MB peak, ${result.leads} leads in ${result.seconds} s = ${result.leadsPerSecond} leads/s`);
      results.push(result);
    }
    const base = results.find((r) => r.replicas === 1)?.leadsPerSecond;
    reportFigures('distributed', {
      setup: { placesPerSearch: PLACES, searchesAtOnce: SEARCHES, latencyMs: LATENCY_MS, cores: os.cpus().length, note: 'every process on one machine: replicas share its cores' },
      results: results.map((r) => ({ ...r, scalingEfficiency: base ? Math.round((r.leadsPerSecond / (base * r.replicas)) * 100) / 100 : null })),
    });
  } finally {
    await stopFixtureWeb();
  }
}

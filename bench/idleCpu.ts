// What the product costs doing nothing: CPU seconds a minute of `npm start` (one process) and of
// `npm run start:distributed` (every component with its children: PostgreSQL backends, Kafka, Envoy),
// measured over BENCH_IDLE_SECONDS (default 60) once BENCH_SETTLE_SECONDS (default 15) have passed
// after the ready line, with no user and no request. What an idle product spends is polling and
// timers: a laptop's fan, a cloud bill, and every test that keeps a product running.
import fs from 'node:fs';
import { buildWebIfStale } from '../scripts/webBuild.mjs';
import { treeCpuSeconds } from './support/processTree.ts';
import { startLocalStack } from '../test/support/localStack.ts';
import { startDistributedStack } from '../test/support/distributedStack.ts';
import { reportFigures } from './benchResults.ts';

const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 15) * 1000;
const WINDOW_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 60) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const perMinute = (seconds: number) => Math.round((seconds * 60_000 / WINDOW_MS) * 100) / 100;

/** CPU seconds a minute each pid (with its descendants) used over the window, once settled. */
async function idleCpu(pids: Record<string, number[]>): Promise<Record<string, number>> {
  await sleep(SETTLE_MS);
  const read = () => Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, list.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0)]));
  const before = read();
  await sleep(WINDOW_MS);
  const after = read();
  return Object.fromEntries(Object.keys(pids).map((name) => [name, perMinute(after[name] - before[name])]));
}

const total = (figures: Record<string, number>) => Math.round(Object.values(figures).reduce((a, b) => a + b, 0) * 100) / 100;

buildWebIfStale();
const local = await startLocalStack({ env: { SKIP_WEB_BUILD: 'true' } });
const localFigures = await idleCpu({ 'npm start': [local.pid] }).finally(async () => {
  await local.stop();
  fs.rmSync(local.dataDir, { recursive: true, force: true });
});
console.log(`npm start, idle: ${localFigures['npm start']} s of CPU a minute`);

const distributed = await startDistributedStack({ env: { LOG_LEVEL: 'warn' } });
let distributedFigures: Record<string, number>;
try {
  const byKind: Record<string, number[]> = { launcher: [distributed.pid] };
  for (const c of distributed.topology().components) (byKind[c.name.replace(/-\d+$/, '')] ??= []).push(c.pid);
  // The launcher's tree holds every component: its own share is what is left once theirs is taken out.
  const figures = await idleCpu(byKind);
  figures.launcher = Math.round((figures.launcher - total({ ...figures, launcher: 0 })) * 100) / 100;
  distributedFigures = figures;
} finally {
  await distributed.stop();
  fs.rmSync(distributed.dataDir, { recursive: true, force: true });
}
console.log(`start:distributed, idle: ${total(distributedFigures)} s of CPU a minute: ${Object.entries(distributedFigures).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);

reportFigures('idleCpu', {
  local_cpu_seconds_per_minute: localFigures['npm start'],
  distributed_cpu_seconds_per_minute: total(distributedFigures),
  distributed_by_component: distributedFigures,
  note: `CPU (user + system, every thread, with children) over ${WINDOW_MS / 1000} s, ${SETTLE_MS / 1000} s after the ready line, nothing asked of the product; the machine is shared, so figures vary a little with its load`,
});

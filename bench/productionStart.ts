// How a production service process starts: TypeScript through the tsx loader (before issue 27) against
// the compiled JavaScript it runs now (`npm run build:services`, packages/service-runner/dist/runService.js).
// Every service is started BENCH_ROUNDS times (default 3) each way, alternately, on a private
// PostgreSQL with its database already migrated: time from spawn to the first 200 from /readyz, and
// the process's resident memory then (the page-parsing worker of the scraper included: a thread).
// Figures: the median per service and mode, and their sum over the seven services (what one
// `start:distributed` machine, or one pod of each, holds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICES } from '@leadforge/contracts';
import { freePort } from '../stack/src/freePort.ts';
import { startPostgres } from '../stack/src/infrastructure/postgresServer.ts';
import { buildServicesIfStale } from '../scripts/buildServices.mjs';
import { COMPILED_ENTRY, COMPILED_NODE_OPTIONS } from '../stack/src/distributed/serviceProcess.ts';
import { reportFigures } from './benchResults.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODES = {
  tsx: ['--import', 'tsx', path.join(ROOT, 'packages', 'service-runner', 'src', 'runService.ts')],
  compiled: [...COMPILED_NODE_OPTIONS, COMPILED_ENTRY],
} as const;
type Mode = keyof typeof MODES;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function startOnce(mode: Mode, service: string, env: NodeJS.ProcessEnv): Promise<{ readyMs: number; rssMb: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...MODES[mode], service], { cwd: ROOT, env: { ...env, PORT: String(port), SERVICE_HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => { errors += d; });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${service} (${mode}) exited with ${child.exitCode}: ${errors}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    return { readyMs: performance.now() - started, rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

await buildServicesIfStale();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-bench-prodstart-'));
fs.chmodSync(work, 0o755);
const postgres = await startPostgres({ dataDir: path.join(work, 'postgres'), settings: { fsync: 'off' } });
try {
  for (const service of SERVICES) await postgres.ensureDatabase(service);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: work,
    LOG_LEVEL: 'error',
    REDIS_URL: '',
    KAFKA_BROKERS: '',
    ...Object.fromEntries(SERVICES.map((service) => [`${service.toUpperCase()}_DATABASE_URL`, postgres.url(service)])),
  };
  // Migrated once beforehand, so every measured start finds nothing to do.
  for (const service of SERVICES) await startOnce('compiled', service, env);

  const samples: Record<Mode, Record<string, Array<{ readyMs: number; rssMb: number }>>> = { tsx: {}, compiled: {} };
  for (let round = 0; round < ROUNDS; round++) {
    for (const service of SERVICES) {
      const order: Mode[] = round % 2 === 0 ? ['tsx', 'compiled'] : ['compiled', 'tsx'];
      for (const mode of order) (samples[mode][service] ??= []).push(await startOnce(mode, service, env));
    }
  }
  const summary = (mode: Mode) => {
    const perService = Object.fromEntries(SERVICES.map((service) => {
      const runs = samples[mode][service];
      return [service, { ready_ms: Math.round(median(runs.map((r) => r.readyMs))), rss_mb: Math.round(median(runs.map((r) => r.rssMb))) }];
    }));
    const values = Object.values(perService);
    return {
      total_rss_mb: values.reduce((sum, v) => sum + v.rss_mb, 0),
      slowest_ready_ms: Math.max(...values.map((v) => v.ready_ms)),
      mean_ready_ms: Math.round(values.reduce((sum, v) => sum + v.ready_ms, 0) / values.length),
      per_service: perService,
    };
  };
  reportFigures('productionStart', { rounds: ROUNDS, load_average_1m: os.loadavg()[0], tsx: summary('tsx'), compiled: summary('compiled') });
} finally {
  await postgres.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

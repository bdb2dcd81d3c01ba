/**
 * Every metric a dashboard or an alert rule reads is one the services really export: the services of
 * the workspace are started in this process (as the local stack does, in-memory databases) and each
 * one's /metrics is scraped. A metric of a service that has not landed yet (`leadforge_<service>_*`
 * with no services/<service>/src/index.ts) must at least be defined in that service's code; it is
 * checked against a running service as soon as the service lands.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '@leadforge/contracts';
import pino from 'pino';
import { startService, type RunningService } from '@leadforge/kit/service';
import { sharedMemoryBus } from '@leadforge/kit/events';
import { REPO_ROOT, workspaceServices } from '../../deploy/workspaceServices.ts';
import { loadDefinition } from '../../packages/service-runner/src/runService.ts';
import { dashboardQueries, ruleQueries, type Query } from './support/dashboardQueries.ts';
import { exportedSeries, metricNames } from './support/promql.ts';

const running = workspaceServices();
const pending = SERVICES.filter((s) => !running.includes(s));

function ownerOf(metric: string): string | undefined {
  return SERVICES.find((s) => metric.startsWith(`leadforge_${s}_`));
}

function definedInCode(service: string, metric: string): boolean {
  const base = metric.replace(/_(bucket|sum|count)$/, '');
  const walk = (dir: string): boolean => fs.readdirSync(dir, { withFileTypes: true }).some((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name !== 'node_modules' && walk(full);
    return entry.name.endsWith('.ts') && fs.readFileSync(full, 'utf8').includes(`'${base}'`);
  });
  const src = path.join(REPO_ROOT, 'services', service, 'src');
  return fs.existsSync(src) && walk(src);
}

describe(`metrics used by dashboards and alerts are exported by the running services (${running.join(', ')}${pending.length ? `; not landed yet: ${pending.join(', ')}` : ''})`, () => {
  const services: RunningService[] = [];
  const exported = new Set<string>();

  // Two at a time, as on two cores (all seven at once starves their embedded databases).
  beforeAll(async () => {
    const env = { ...process.env, DATA_DIR: ':memory:', DATABASE_URL: '', KAFKA_BROKERS: '', REDIS_URL: '', LOG_LEVEL: 'error', EMAIL_MX_CHECK: 'false' };
    const logger = pino({ level: 'error' });
    const queue = [...running];
    const startNext = async (): Promise<void> => {
      const name = queue.shift();
      if (!name) return;
      const service = await startService(await loadDefinition(name), { env, bus: sharedMemoryBus(), port: 0, logger });
      services.push(service);
      const response = await fetch(`${service.url}/metrics`);
      expect(response.status, `${service.name} /metrics`).toBe(200);
      for (const metric of exportedSeries(await response.text())) exported.add(metric);
      return startNext();
    };
    await Promise.all([startNext(), startNext()]);
  }, 180_000);

  afterAll(async () => {
    for (const service of services.reverse()) await service.stop();
  });

  it('every service answers /metrics with the kit\'s HTTP histogram, bus and outbox metrics', () => {
    for (const name of ['leadforge_http_request_duration_seconds_bucket', 'leadforge_outbox_backlog', 'leadforge_dead_letters_total', 'process_cpu_seconds_total']) {
      expect(exported, name).toContain(name);
    }
  });

  const check = (queries: Query[]) => {
    const missing: string[] = [];
    for (const { where, expr } of queries) {
      for (const metric of metricNames(expr)) {
        if (exported.has(metric)) continue;
        const owner = ownerOf(metric);
        if (owner && pending.includes(owner as never) && definedInCode(owner, metric)) continue;
        missing.push(`${where}: ${metric}${owner && pending.includes(owner as never) ? ` (not defined in services/${owner}/src either)` : ''}`);
      }
    }
    return missing;
  };

  it('every metric of every Grafana panel', () => {
    expect(check(dashboardQueries())).toEqual([]);
  });

  it('every metric of every alert rule', () => {
    expect(check(ruleQueries())).toEqual([]);
  });
});

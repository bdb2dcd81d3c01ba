import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { findPrometheus, scaleDuration, scaleRuleDurations, startPrometheus, type PrometheusServer } from '../src/infrastructure/index.ts';
import { isAlive, listeningAddresses, LOOPBACK_V4 } from './support/listeners.ts';

const PROMETHEUS_DIR = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url));
const installed = (() => {
  try {
    return Boolean(findPrometheus());
  } catch {
    return false;
  }
})();

describe('rule durations scaled for a rehearsal', () => {
  it('divides each duration, down to milliseconds', () => {
    expect(scaleDuration('10m', 60)).toBe('10s');
    expect(scaleDuration('1h30m', 60)).toBe('90s');
    expect(scaleDuration('1m', 7)).toBe('8571ms');
    expect(scaleDuration('24h', 1)).toBe('86400s');
    expect(() => scaleDuration('ten minutes', 60)).toThrow(/not a Prometheus duration/);
  });

  it('scales every `for:` and range of the project\'s rules and nothing else; promtool accepts the result', () => {
    const rules = parse(fs.readFileSync(path.join(PROMETHEUS_DIR, 'alerts.yaml'), 'utf8'));
    const scaled = scaleRuleDurations(rules, 60);
    const before = rules.groups.flatMap((g: { rules: unknown[] }) => g.rules) as Array<Record<string, string>>;
    const after = scaled.groups.flatMap((g) => g.rules) as Array<Record<string, string>>;
    expect(after.map((r) => r.alert)).toEqual(before.map((r) => r.alert));
    for (const [i, rule] of after.entries()) {
      expect(rule.expr.replace(/\[[^\]]+\]/g, '[]')).toBe(before[i].expr.replace(/\[[^\]]+\]/g, '[]'));
      expect(rule.expr).not.toMatch(/\[\d+[mh]\]/);
      expect(rule.annotations).toEqual(before[i].annotations);
    }
    expect(after.find((r) => r.alert === 'LeadforgeOutboxBacklogGrowing')).toMatchObject({ for: '10s', expr: expect.stringContaining('[10s]') });
    if (!installed) return;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lf-rules-')), 'alerts.yaml');
    fs.writeFileSync(file, JSON.stringify(scaled));
    expect(execFileSync('promtool', ['check', 'rules', file], { encoding: 'utf8' })).toContain('SUCCESS');
  });
});

describe.skipIf(!installed)(`a private Prometheus server${installed ? '' : ' (skipped: no prometheus; apt-get install -y prometheus)'}`, () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-prometheus-test-'));
  const running: PrometheusServer[] = [];
  const target = http.createServer((_req, res) => res.end('# TYPE leadforge_test_up gauge\nleadforge_test_up 1\n'));
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    target.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('listens only on 127.0.0.1, scrapes the targets it is given with their labels, and loads the project\'s rules', async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as { port: number }).port;
    const server = await startPrometheus({
      workDir: path.join(base, 'prometheus'),
      configFile: path.join(PROMETHEUS_DIR, 'prometheus.yaml'),
      targets: [{ address: `127.0.0.1:${port}`, labels: { service: 'auth', pod: 'auth' } }],
      interval: '1s',
    });
    running.push(server);
    expect(isAlive(server.pid)).toBe(true);
    expect(listeningAddresses(server.port)).toEqual([LOOPBACK_V4]);
    const query = async (q: string) => (await (await fetch(`${server.url}/api/v1/query?query=${encodeURIComponent(q)}`)).json()).data.result as Array<{ metric: Record<string, string> }>;
    const result = await waitFor(() => query('leadforge_test_up'), { until: (r) => r.length > 0, timeoutMs: 30_000, intervalMs: 250, what: 'the first scrape' });
    expect(result[0].metric).toMatchObject({ service: 'auth', pod: 'auth', job: 'leadforge' });
    const rules = await (await fetch(`${server.url}/api/v1/rules`)).json();
    expect(rules.data.groups.flatMap((g: { rules: unknown[] }) => g.rules).length).toBeGreaterThan(5);
  });

  it('refuses an interval that is not a duration, before starting anything', async () => {
    await expect(startPrometheus({ workDir: path.join(base, 'bad'), configFile: path.join(PROMETHEUS_DIR, 'prometheus.yaml'), targets: [], interval: 'often' }))
      .rejects.toThrow(/not a duration/);
  });
});

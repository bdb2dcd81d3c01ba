import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';
import { GRAFANA_DIR, renderDashboards } from '../../deploy/grafana/generateDashboards.ts';
import { metricNames } from './support/promql.ts';

const RULES = path.join(REPO_ROOT, 'deploy/prometheus/alerts.yaml');
const promtool = spawnSync('promtool', ['--version']).status === 0;
const rules = parse(fs.readFileSync(RULES, 'utf8'));
const allRules = rules.groups.flatMap((g: any) => g.rules);

describe('Prometheus alert rules (deploy/prometheus)', () => {
  it.skipIf(!promtool)(`pass promtool check rules${promtool ? '' : ' (skipped: promtool is not installed; .ci/run installs Debian\'s prometheus package)'}`, () => {
    expect(execFileSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' })).toContain('SUCCESS');
  });

  it.skipIf(!promtool)(`fire on the situations they name: promtool test rules alerts.test.yaml${promtool ? '' : ' (skipped: promtool is not installed)'}`, () => {
    expect(execFileSync('promtool', ['test', 'rules', 'alerts.test.yaml'], { cwd: path.dirname(RULES), encoding: 'utf8' })).toContain('SUCCESS');
  });

  it('cover error rate, latency, outbox backlog, dead letters, quota, scraper lag, payment failures and restarts, each with a runbook', () => {
    const names = allRules.map((r: any) => r.alert);
    for (const alert of ['LeadforgeHighErrorRate', 'LeadforgeHighLatency', 'LeadforgeOutboxBacklogGrowing', 'LeadforgeDeadLetters', 'LeadforgeProxyQuotaLow',
      'LeadforgeScraperLagging', 'LeadforgePaymentCaptureFailures', 'LeadforgePodRestarting']) expect(names).toContain(alert);
    for (const rule of allRules) {
      expect(rule.annotations?.runbook?.length, `${rule.alert} runbook`).toBeGreaterThan(20);
      expect(rule.labels?.severity, `${rule.alert} severity`).toMatch(/^(warning|critical)$/);
    }
  });
});

describe('Grafana dashboards (deploy/grafana)', () => {
  it('are exactly what deploy/grafana/dashboards.ts generates', () => {
    for (const [file, text] of Object.entries(renderDashboards())) {
      expect(fs.readFileSync(path.join(GRAFANA_DIR, file), 'utf8'), `run: node --import tsx deploy/grafana/generateDashboards.ts (${file})`).toBe(text);
    }
    const committed = fs.readdirSync(GRAFANA_DIR).filter((f) => f.endsWith('.json')).sort();
    expect(committed).toEqual(Object.keys(renderDashboards()).sort());
  });

  it('cover golden signals, the lead pipeline, the proxy quota, money and the bus, with unique uids and a query in every panel', () => {
    const dashboards = Object.values(renderDashboards()).map((text) => JSON.parse(text));
    expect(dashboards.map((d) => d.uid).sort()).toEqual(['leadforge-bus', 'leadforge-golden-signals', 'leadforge-lead-pipeline', 'leadforge-money', 'leadforge-proxy-quota']);
    for (const dashboard of dashboards) {
      const ids = dashboard.panels.map((p: any) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const panel of dashboard.panels) {
        expect(panel.targets.length, `${dashboard.uid} ${panel.title}`).toBeGreaterThan(0);
        for (const target of panel.targets) expect(metricNames(target.expr).length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
        expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      }
    }
    const golden = dashboards.find((d) => d.uid === 'leadforge-golden-signals');
    const exprs = JSON.stringify(golden.panels.map((p: any) => p.targets));
    for (const q of ['0.5', '0.95', '0.99']) expect(exprs).toContain(`histogram_quantile(${q}`);
  });
});

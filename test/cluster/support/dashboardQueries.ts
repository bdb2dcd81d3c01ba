/** Every PromQL expression of the Grafana dashboards and the alert rules under deploy/. */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DASHBOARDS } from '../../../deploy/grafana/dashboards.ts';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';

export interface Query { where: string; expr: string }

export function dashboardQueries(): Query[] {
  const dir = path.join(REPO_ROOT, 'deploy/grafana');
  const queries: Query[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const dashboard = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    for (const panel of dashboard.panels) for (const target of panel.targets) queries.push({ where: `${file} "${panel.title}"`, expr: target.expr });
    for (const variable of dashboard.templating.list) if (variable.definition) queries.push({ where: `${file} $${variable.name}`, expr: variable.definition.replace(/^label_values\(([^,]+),.*$/, '$1') });
  }
  return queries;
}

export function ruleQueries(): Query[] {
  const rules = parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy/prometheus/alerts.yaml'), 'utf8'));
  return rules.groups.flatMap((g: any) => g.rules.map((r: any) => ({ where: `alert ${r.alert}`, expr: r.expr })));
}

/** What Grafana puts for $__rate_interval at a short scrape interval and time range. */
const RATE_INTERVAL = '1m';

/** Each Grafana panel target as Grafana sends it to Prometheus, its variables filled in ("All" services). */
export function panelQueries(): Array<Query & { instant: boolean }> {
  return Object.entries(DASHBOARDS).flatMap(([file, dashboard]) => (dashboard.panels as Array<{ title: string; targets: Array<{ expr: string; instant?: boolean; refId: string }> }>)
    .flatMap((panel) => panel.targets.map((target) => ({
      where: `${file} "${panel.title}" ${target.refId}`,
      expr: target.expr.replaceAll('$__rate_interval', RATE_INTERVAL).replaceAll('$service', '.+'),
      instant: Boolean(target.instant),
    }))));
}

/**
 * The panels whose query finds no series (named with their expression), read once through `query`
 * (a Prometheus API call answering its `data`): range queries from `startSeconds` in `stepSeconds`.
 */
export async function emptyPanels(query: (pathAndQuery: string) => Promise<{ result: unknown[] }>, startSeconds: number, stepSeconds: number): Promise<string[]> {
  const now = Date.now() / 1000;
  const results = await Promise.all(panelQueries().map(async (q) => {
    const data = q.instant
      ? await query(`/api/v1/query?${new URLSearchParams({ query: q.expr, time: String(now) })}`)
      : await query(`/api/v1/query_range?${new URLSearchParams({ query: q.expr, start: String(startSeconds), end: String(now), step: String(stepSeconds) })}`);
    return { where: q.where, expr: q.expr, series: data.result.length };
  }));
  return results.filter((r) => r.series === 0).map((r) => `${r.where}: ${r.expr}`);
}

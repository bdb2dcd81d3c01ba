/**
 * Writes deploy/grafana/<name>.json from dashboards.ts:
 *   node --import tsx deploy/grafana/generateDashboards.ts           write the files
 *   node --import tsx deploy/grafana/generateDashboards.ts --check   exit 1 when a committed file is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { DASHBOARDS } from './dashboards.ts';

export const GRAFANA_DIR = path.resolve(new URL('.', import.meta.url).pathname);

export function renderDashboards(): Record<string, string> {
  return Object.fromEntries(Object.entries(DASHBOARDS).map(([name, json]) => [`${name}.json`, `${JSON.stringify(json, null, 2)}\n`]));
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [file, text] of Object.entries(renderDashboards())) {
    const target = path.join(GRAFANA_DIR, file);
    if (check) {
      if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) { console.error(`deploy/grafana/${file} is stale`); stale = true; }
    } else {
      fs.writeFileSync(target, text);
      console.log(`wrote deploy/grafana/${file}`);
    }
  }
  if (stale) process.exit(1);
}

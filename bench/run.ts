// `npm run bench`: runs every benchmark in bench/ (each a standalone script that prints its figures
// and adds them to bench/results/<name>.md), one after another so they do not disturb each other.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const benches = fs.readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'benchResults.ts'].includes(f))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)));
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: 'error' } });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

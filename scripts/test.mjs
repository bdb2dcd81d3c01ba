// `npm test`: type-checks every workspace, lints (ESLint and the import rules), builds the SPA, runs every
// vitest suite, prints one summary line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint } from './lint.mjs';
import { typecheck } from './typecheck.mjs';
import { buildWeb } from './webBuild.mjs';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status ?? 1;

if (!(await typecheck())) process.exit(1);
if (!(await lint())) process.exit(1);

try {
  buildWeb();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-vitest-'));
// The JSON report times each file's tests only; file-times.json has each file's import and hooks too.
const vitest = (name, args) => {
  const report = path.join(reports, `${name}.json`);
  const env = { ...process.env, LEADFORGE_FILE_TIMES: path.join(reports, `${name}-file-times.json`) };
  const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, '--reporter=./test/support/fileTimesReporter.ts', ...args], { env });
  return { status, report: fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : undefined };
};
// With arguments (a file, a filter), one run of what they name; without, every test, the cluster's
// last and alone (it wants both cores while its pods start, scale and roll).
const given = process.argv.slice(2);
const runs = given.length
  ? [vitest('all', given)]
  : [vitest('main', ['--project', 'workspaces', '--project', 'product', '--project', 'isolated']), vitest('cluster', ['--project', 'cluster'])];
const sum = (field) => runs.reduce((total, r) => total + (r.report?.[field] ?? 0), 0);
console.log(`\ntests: ${sum('numPassedTests')} passed, ${sum('numFailedTests')} failed, ${sum('numPendingTests') + sum('numTodoTests')} skipped`);
process.exit(runs.find((r) => r.status !== 0)?.status ?? 0);

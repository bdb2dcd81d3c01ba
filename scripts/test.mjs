// `npm test`: type-checks every workspace, lints (ESLint and the import rules), builds the SPA, runs every
// vitest suite, prints one summary line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint } from './lint.mjs';
import { typecheck } from './typecheck.mjs';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status ?? 1;

if (!(await typecheck())) process.exit(1);
if (!(await lint())) process.exit(1);

if (run('npm', ['run', 'build', '--workspace', '@leadforge/web']) !== 0) process.exit(1);

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-vitest-'));
const report = path.join(reports, 'report.json');
// The JSON report times each file's tests only; file-times.json has each file's import and hooks too.
const fileTimes = { ...process.env, LEADFORGE_FILE_TIMES: path.join(reports, 'file-times.json') };
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, '--reporter=./test/support/fileTimesReporter.ts', ...process.argv.slice(2)], { env: fileTimes });
if (fs.existsSync(report)) {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(status);

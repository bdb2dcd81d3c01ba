// `npm test`: type-checks every workspace, builds the SPA, runs every vitest suite, prints one summary line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status ?? 1;

const projects = ['services/contracts', 'services/kit', ...fs.readdirSync(path.join(root, 'services'))
  .filter((d) => !['contracts', 'kit'].includes(d) && fs.existsSync(path.join(root, 'services', d, 'tsconfig.json')))
  .map((d) => `services/${d}`), 'gateway', 'stack', 'web', 'test'];
for (const project of projects) {
  if (!fs.existsSync(path.join(root, project, 'tsconfig.json'))) continue;
  if (run('npx', ['tsc', '--noEmit', '-p', project]) !== 0) {
    console.error(`type check failed in ${project}`);
    process.exit(1);
  }
}

if (run('npm', ['run', 'build', '--workspace', '@leadforge/web']) !== 0) process.exit(1);

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-vitest-')), 'report.json');
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);
if (fs.existsSync(report)) {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(status);

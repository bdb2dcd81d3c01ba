// What a run of the tests costs: wall time and CPU of `npm run test:quick` (BENCH_TEST_COMMAND chooses
// another, e.g. "npm test"), beside how busy the machine's cores were meanwhile. Tests never time
// themselves (timing belongs here), so this is where a run's figures are kept.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportFigures } from './benchResults.ts';

const command = process.env.BENCH_TEST_COMMAND ?? 'npm run test:quick';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** CPU seconds of this process's waited-for children: every descendant that its parent reaped. */
function childrenCpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Busy and total time of all the machine's cores so far, in clock ticks (/proc/stat's first line). */
function coreTicks(): { busy: number; total: number } {
  const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = ticks[3] + ticks[4];
  const total = ticks.reduce((sum, n) => sum + n, 0);
  return { busy: total - idle, total };
}

const cpuBefore = childrenCpuSeconds();
const coresBefore = coreTicks();
const started = performance.now();
const run = spawnSync(command, { cwd: root, shell: true, stdio: 'inherit' });
const wallSeconds = (performance.now() - started) / 1000;
const coresAfter = coreTicks();

reportFigures('testRun', {
  command,
  exit_code: run.status,
  wall_seconds: Math.round(wallSeconds),
  cpu_seconds: Math.round(childrenCpuSeconds() - cpuBefore),
  machine_cores_busy: `${Math.round((100 * (coresAfter.busy - coresBefore.busy)) / Math.max(1, coresAfter.total - coresBefore.total))}% of ${os.cpus().length}`,
  note: 'cpu_seconds counts every process the run waited for; a browser\'s renderers and containers leave their parents and are not in it. machine_cores_busy is the whole machine, whatever else ran on it',
});
process.exit(run.status ?? 1);

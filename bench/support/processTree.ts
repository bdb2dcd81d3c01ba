import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** A process and all its descendants (PostgreSQL backends, nginx workers, a launcher's children). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch { /* none */ }
  return [pid, ...children.flatMap(processTree)];
}

/** Resident memory of a process and all its descendants, in MB. */
export function treeRssMb(pid: number): number {
  let kb = 0;
  for (const member of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${member}/status`, 'utf8'))?.[1] ?? 0);
    } catch { /* gone */ }
  }
  return kb / 1024;
}

/** CPU time (user + system, every thread) a process and its descendants have used so far, in seconds. */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      const fields = fs.readFileSync(`/proc/${member}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks / 100;
}

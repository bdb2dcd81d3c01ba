import fs from 'node:fs';
import os from 'node:os';

/** The cgroup's CPU limit in whole cores (rounded up), if the process runs under one (a container's limits). */
function cgroupCpuLimit(): number | undefined {
  const read = (file: string): string | undefined => {
    try {
      return fs.readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  // cgroup v2: "<quota> <period>", quota "max" when unlimited; v1: two files, quota -1 when unlimited.
  const v2 = read('/sys/fs/cgroup/cpu.max')?.split(/\s+/);
  const quota = Number(v2?.[0] ?? read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'));
  const period = Number(v2?.[1] ?? read('/sys/fs/cgroup/cpu/cpu.cfs_period_us'));
  return quota > 0 && period > 0 ? Math.ceil(quota / period) : undefined;
}

/**
 * The cores this process may use: the machine's (Node counts the ones it may be scheduled on), or
 * fewer under a container CPU limit, which Node does not see (a 1-CPU pod on a 16-core node).
 */
export function cpuBudget(): number {
  return Math.max(1, Math.min(os.availableParallelism(), cgroupCpuLimit() ?? Infinity));
}

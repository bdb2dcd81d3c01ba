/**
 * The cluster's cgroups: one tree named CGROUP_ROOT in every cgroup v1 hierarchy. The daemon enters
 * it at start, kubelet puts the pods under it, and stop (the daemon's, then cluster:down's) removes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CGROUP_ROOT } from './clusterComponents.ts';

const CGROUP_MOUNT = '/sys/fs/cgroup';

/** Cgroup v1 hierarchies mounted here (cpu, memory, pids, ..., the systemd named one). */
function cgroupHierarchies(): string[] {
  return fs.readdirSync(CGROUP_MOUNT).map((name) => path.join(CGROUP_MOUNT, name))
    .filter((dir) => fs.existsSync(path.join(dir, 'cgroup.procs')) && !fs.lstatSync(dir).isSymbolicLink());
}

/**
 * The cluster's cgroup in every hierarchy, with this process moved into `<root>/daemon` of the pids
 * hierarchy: everything it starts, containerd's shims included, and every container (kubelet puts
 * pods under `<root>/kubepods`) is then found under one tree, which stop empties and removes.
 */
export function enterClusterCgroup(): void {
  for (const hierarchy of cgroupHierarchies()) {
    const root = path.join(hierarchy, CGROUP_ROOT);
    fs.mkdirSync(root, { recursive: true });
    if (path.basename(hierarchy) === 'cpuset') {
      // A new cpuset cgroup has no cpus or memory nodes until given its parent's.
      for (const file of ['cpuset.cpus', 'cpuset.mems']) {
        if (!fs.readFileSync(path.join(root, file), 'utf8').trim()) fs.writeFileSync(path.join(root, file), fs.readFileSync(path.join(hierarchy, file), 'utf8'));
      }
    }
  }
  const daemonGroup = path.join(CGROUP_MOUNT, 'pids', CGROUP_ROOT, 'daemon');
  fs.mkdirSync(daemonGroup, { recursive: true });
  fs.writeFileSync(path.join(daemonGroup, 'cgroup.procs'), String(process.pid));
}

/** Every process in a cgroup and the cgroups under it. */
export function pidsUnder(dir: string): number[] {
  if (!fs.existsSync(dir)) return [];
  const own = fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  const nested = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => pidsUnder(path.join(dir, e.name)));
  return [...own, ...nested];
}

/** The processes of the cluster's tree, in the pids hierarchy (where every one of them is). */
export const clusterPids = (): number[] => pidsUnder(path.join(CGROUP_MOUNT, 'pids', CGROUP_ROOT));

/** Removes a cgroup and those under it, deepest first; a busy one (a process still leaving) stays. */
function removeCgroupTree(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeCgroupTree(path.join(dir, entry.name));
  try {
    fs.rmdirSync(dir);
  } catch {
    // EBUSY while a killed process is still exiting: the caller tries again.
  }
}

/** The hierarchies in which the cluster's tree still exists. */
export const clusterCgroupsLeft = (): string[] =>
  cgroupHierarchies().filter((hierarchy) => fs.existsSync(path.join(hierarchy, CGROUP_ROOT))).map((hierarchy) => path.basename(hierarchy));

/**
 * Removes the cluster's tree from every hierarchy, trying again while a process that was killed is
 * still leaving it, for up to `withinMs`. Returns the hierarchies where it is still there.
 */
export async function clusterCgroupsRemoved(withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    for (const hierarchy of cgroupHierarchies()) removeCgroupTree(path.join(hierarchy, CGROUP_ROOT));
    const left = clusterCgroupsLeft();
    if (!left.length || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

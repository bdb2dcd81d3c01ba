import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's default shared_buffers (128 MB) is what made each embedded engine hold ~170 MB
 * resident: a service's working set is a few MB and its files stay in the OS page cache anyway.
 * An engine is one single-user backend, so shared memory sized for 100 connections is waste too.
 * With these an engine costs ~35 MB past the first (docs/decisions.md, "Local mode's memory").
 */
export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB', '-c', 'temp_buffers=1MB', '-c', 'max_connections=4'];

/** A folder holds a cluster once initdb has written its version file. */
const CLUSTER_MARKER = 'PG_VERSION';

const INIT_CLUSTER_WORKER = new URL('./initCluster.worker.mjs', import.meta.url);

interface ClusterTemplate {
  /** The cluster's folder, copied into each new service folder. */
  dir: string;
  /** The same as a tar archive, loaded into each in-memory engine (tests). */
  archive: string;
}

let template: Promise<ClusterTemplate> | undefined;

/**
 * One freshly initialised cluster per process, made in a worker thread: initdb is the costly part of
 * a new embedded database (seconds, and hundreds of MB a thread keeps after it), so it runs once, in
 * a thread whose memory goes when it ends, and every new database starts as a copy of it.
 */
function clusterTemplate(): Promise<ClusterTemplate> {
  template ??= new Promise<ClusterTemplate>((resolve, reject) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-pglite-template-'));
    process.once('exit', () => fs.rmSync(root, { recursive: true, force: true }));
    const made = { dir: path.join(root, 'cluster'), archive: path.join(root, 'cluster.tar') };
    const worker = new Worker(INIT_CLUSTER_WORKER, { workerData: { ...made, startParams: EMBEDDED_START_PARAMS } });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 && fs.existsSync(path.join(made.dir, CLUSTER_MARKER)) && fs.existsSync(made.archive)
      ? resolve(made)
      : reject(new Error(`embedded database initialisation failed (exit ${code})`))));
  });
  return template;
}

/**
 * Gives an empty or missing folder a cluster (a copy of the template, renamed into place so a crash
 * never leaves half a cluster). A folder that already holds anything is left to PGlite as it is:
 * existing data, in whatever layout, is never overwritten.
 */
async function ensureCluster(dir: string): Promise<void> {
  if (fs.existsSync(path.join(dir, CLUSTER_MARKER))) return;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) return;
  const { dir: source } = await clusterTemplate();
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(source, partial, { recursive: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
}

/** Opens an embedded engine on `dir` (in memory without one), ready for queries. */
export async function openEmbeddedEngine(dir?: string): Promise<PGlite> {
  if (dir) await ensureCluster(dir);
  const loadDataDir = dir ? undefined : new Blob([fs.readFileSync((await clusterTemplate()).archive)]);
  const engine = new PGlite({ dataDir: dir, loadDataDir, startParams: EMBEDDED_START_PARAMS });
  await engine.waitReady;
  return engine;
}

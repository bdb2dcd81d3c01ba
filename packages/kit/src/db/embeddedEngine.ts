import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { extractClusterArchive } from './clusterArchive.ts';

/**
 * PostgreSQL's default shared_buffers (128 MB) is what made each embedded engine hold ~170 MB
 * resident: a service's working set is a few MB and its files stay in the OS page cache anyway.
 * An engine is one single-user backend, so shared memory sized for 100 connections is waste too.
 * With these an engine costs ~35 MB past the first (bench/results/startup.md).
 */
export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB', '-c', 'temp_buffers=1MB', '-c', 'max_connections=4'];

/**
 * WAL in 1 MB segments, not PostgreSQL's 16 MB: a new cluster's first segment is written in full, so
 * 16 MB was over a third of each service's fresh folder (272 MB for the seven), copied whole by every
 * test that starts a product from the data template and held in memory by every in-memory database.
 * An embedded database writes little; the segment size is read from each cluster's own control file,
 * so folders made before keep theirs.
 */
const EMBEDDED_INITDB_PARAMS = ['--wal-segsize=1'];

export interface EmbeddedEngineOptions {
  /** A service whose tables outgrow 8 MB of buffers on its hot pages asks for more (it costs as much resident). */
  sharedBuffersMb?: number;
}

const startParamsFor = (options: EmbeddedEngineOptions) => options.sharedBuffersMb
  ? [...EMBEDDED_START_PARAMS, '-c', `shared_buffers=${options.sharedBuffersMb}MB`]
  : EMBEDDED_START_PARAMS;

/** A folder holds a cluster once initdb has written its version file. */
const CLUSTER_MARKER = 'PG_VERSION';

const INIT_CLUSTER_WORKER = new URL('./initCluster.worker.mjs', import.meta.url);

let template: Promise<Uint8Array<ArrayBuffer>> | undefined;

/**
 * A folder where processes share the archive (test/support/globalInfra.ts sets it for a test run): every
 * test file runs in a process of its own, and initdb in each (6-10 s of CPU here) was a good part of
 * `npm test`. Within one run the engine and its start parameters cannot change, so one file serves all.
 */
const SHARED_ARCHIVE_FOLDER = process.env.LEADFORGE_CLUSTER_ARCHIVE_FOLDER;

/** Runs initdb in a worker thread, whose memory goes when it ends. */
function initCluster(): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    const worker = new Worker(INIT_CLUSTER_WORKER, { workerData: { startParams: EMBEDDED_START_PARAMS, initDbParams: EMBEDDED_INITDB_PARAMS } });
    worker.once('message', (archive: Uint8Array<ArrayBuffer>) => resolve(archive));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`embedded database initialisation failed (exit ${code})`)));
  });
}

/** The shared folder's archive, made and written (renamed into place, so never read half-written) by whichever process needs it first. */
async function sharedArchive(folder: string): Promise<Uint8Array<ArrayBuffer>> {
  const file = path.join(folder, 'embedded-cluster.tar.gz');
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const archive = await initCluster();
  const partial = `${file}.partial-${process.pid}`;
  fs.writeFileSync(partial, archive);
  fs.renameSync(partial, file);
  return archive;
}

/**
 * One freshly initialised cluster per process, as a gzipped tar archive (~4.5 MB) kept in memory:
 * initdb is the costly part of a new embedded database (seconds, and hundreds of MB a thread keeps
 * after it), so it runs once, and every new database (a new service folder, or an in-memory one in
 * tests) starts from the archive.
 */
function clusterArchive(): Promise<Uint8Array<ArrayBuffer>> {
  template ??= SHARED_ARCHIVE_FOLDER ? sharedArchive(SHARED_ARCHIVE_FOLDER) : initCluster();
  return template;
}

/**
 * Whether `dir` needs a new cluster: missing or empty. A folder that already holds anything is left to
 * PGlite as it is: existing data, in whatever layout, is never overwritten.
 */
function needsCluster(dir: string): boolean {
  if (fs.existsSync(path.join(dir, CLUSTER_MARKER))) return false;
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

/** Fills a new service folder from the archive, renamed into place so a crash never leaves half a cluster. */
async function createCluster(dir: string): Promise<void> {
  const archive = await clusterArchive();
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  extractClusterArchive(archive, partial);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
}

/** Opens an embedded engine on `dir` (in memory without one), ready for queries. */
export async function openEmbeddedEngine(dir?: string, options: EmbeddedEngineOptions = {}): Promise<PGlite> {
  if (dir && needsCluster(dir)) await createCluster(dir);
  const loadDataDir = dir ? undefined : new Blob([await clusterArchive()]);
  const engine = new PGlite({ dataDir: dir, loadDataDir, startParams: startParamsFor(options) });
  await engine.waitReady;
  return engine;
}

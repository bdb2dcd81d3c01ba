// Runs initdb for one in-memory cluster and posts it back as a gzipped tar archive, then ends (see
// embeddedEngine.ts). Plain JavaScript: a worker thread does not inherit the TypeScript loader of its parent.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const engine = new PGlite({ startParams: workerData.startParams, initDbStartParams: workerData.initDbParams });
await engine.waitReady;
const archive = new Uint8Array(await (await engine.dumpDataDir('gzip')).arrayBuffer());
await engine.close();
parentPort.postMessage(archive, [archive.buffer]);

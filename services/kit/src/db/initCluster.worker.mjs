// Runs initdb for one embedded cluster in `workerData.dir`, then ends (see embeddedEngine.ts).
// Plain JavaScript: a worker thread does not inherit the TypeScript loader of its parent.
import { workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const engine = new PGlite({ dataDir: workerData.dir, startParams: workerData.startParams });
await engine.waitReady;
await engine.close();

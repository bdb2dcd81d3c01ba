// Runs initdb for one embedded cluster in `workerData.dir` and keeps it also as a tar archive in
// `workerData.archive`, then ends (see embeddedEngine.ts).
// Plain JavaScript: a worker thread does not inherit the TypeScript loader of its parent.
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const engine = new PGlite({ dataDir: workerData.dir, startParams: workerData.startParams });
await engine.waitReady;
const archive = await engine.dumpDataDir('none');
await engine.close();
fs.writeFileSync(workerData.archive, Buffer.from(await archive.arrayBuffer()));

import path from 'node:path';
import { readInt } from '@leadforge/kit';
import { MissingPrerequisite } from '../infra/prerequisites.ts';
import { DEFAULT_WEB_DIST } from '../startStack.ts';
import { startDistributed, type RunningDistributed } from './startDistributed.ts';

const started = Date.now();
const env = process.env;
const port = readInt(env, 'PORT', 8080, 1, 65535);
const dataDir = path.resolve(env.DATA_DIR || './.data');
console.log(`\n  Starting Leadforge as in production (data: ${dataDir})`);

let running: RunningDistributed | undefined;
let stopping = false;
// A signal while starting aborts the start, which stops what it had started.
const aborted = new AbortController();
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  aborted.abort();
  console.log(`\n  ${signal}: stopping Leadforge (Envoy, web, services, Kafka, Redis, PostgreSQL)...`);
  await running?.stop();
  console.log('  Stopped.');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  running = await startDistributed({
    dataDir,
    port,
    scraperReplicas: readInt(env, 'SCRAPER_REPLICAS', 2, 1, 16),
    webDist: env.WEB_DIST ?? DEFAULT_WEB_DIST,
    env,
    progress: (line) => console.log(line),
    signal: aborted.signal,
  });
} catch (error) {
  if (error instanceof MissingPrerequisite) console.error(`  Missing ${error.what}: ${error.install}`);
  else if (!stopping) console.error('\n  Leadforge failed to start:', (error as Error)?.message ?? error, '\n');
  process.exit(stopping ? 0 : 1);
}
console.log(`\n  Leadforge (distributed) is running at ${running.url}  (${running.components.length} processes; ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`  Topology: ${running.topologyFile}   Logs: ${path.join(dataDir, 'logs')}   Stop: Ctrl-C\n`);

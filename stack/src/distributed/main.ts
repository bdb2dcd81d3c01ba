import path from 'node:path';
import { GatewayVariables } from '@leadforge/gateway';
import { ConfigError, loadVariable, loadVariables } from '@leadforge/kit/config';
import { LauncherVariables } from '../launcherVariables.ts';
import { MissingPrerequisite } from '../infrastructure/prerequisites.ts';
import { DEFAULT_WEB_DIST } from '../embedded/startStack.ts';
import { startDistributed, type RunningDistributed } from './startDistributed.ts';

const started = Date.now();
const env = process.env;
let launcher;
let webDist;
try {
  // PROMETHEUS_INTERVAL is checked here, before anything starts; startDistributed reads it from `env`.
  launcher = loadVariables(LauncherVariables, env);
  webDist = loadVariable(GatewayVariables, 'WEB_DIST', env) ?? DEFAULT_WEB_DIST;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`\n  ${error.message.replaceAll('\n', '\n  ')}\n`);
  process.exit(1);
}
const { PORT: port, SCRAPER_REPLICAS: scraperReplicas, LEADFORGE_RUNTIME: runtime } = launcher;
const dataDir = path.resolve(env.DATA_DIR || './.data');
console.log(`\n  Starting Leadforge as in production (data: ${dataDir}; services as ${runtime === 'containers' ? 'containers of the built images' : 'processes'})`);

// A signal while starting aborts the start, which stops what it had started, in reverse order, before
// the launcher exits; after the start, it stops everything the same way.
const aborted = new AbortController();
const starting = startDistributed({
  dataDir,
  runtime,
  port,
  scraperReplicas,
  webDist,
  env,
  progress: (line) => console.log(line),
  signal: aborted.signal,
});
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n  ${signal}: stopping Leadforge (Envoy, web, services, Kafka, Redis, PostgreSQL)...`);
  aborted.abort(new Error(signal));
  const running = await starting.catch(() => undefined);
  await running?.stop();
  console.log('  Stopped.');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

let running: RunningDistributed;
try {
  running = await starting;
} catch (error) {
  // A signal's shutdown reports and exits once the start has stopped what it started.
  if (stopping) await new Promise(() => {});
  if (error instanceof MissingPrerequisite) console.error(`  Missing ${error.what}: ${error.install}`);
  else console.error('\n  Leadforge failed to start:', (error as Error)?.message ?? error, '\n');
  process.exit(1);
}
console.log(`\n  Leadforge (distributed) is running at ${running.url}  (${running.components.length} processes; ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`  Topology: ${running.topologyFile}   Prometheus: ${running.prometheusUrl}   Health: ${running.healthUrl}/healthz   Logs: ${path.join(dataDir, 'logs')}   Stop: Ctrl-C\n`);

/**
 * The container entry point: runs ONE service of the workspace by name (a cluster pod runs one
 * service; `npm start` runs them all in one process through stack/). Production runs it compiled
 * (`npm run build:services`), the services' compiled packages chosen by the leadforge-dist condition:
 *
 *   node --conditions=leadforge-dist --enable-source-maps packages/service-runner/dist/runService.js <service>
 *
 * and from the sources, as the tests do, `node --import tsx packages/service-runner/src/runService.ts <service>`.
 *
 *   runService <service>                 serve
 *   runService <service> --migrate-only  migrate its database, exit
 *   ... --migrate-only --if-database-exists   the same, but exit 0 when no database URL is configured
 *       yet (a service added in a Helm upgrade: its operator-made database appears during the
 *       upgrade, and the service migrates it at its first start)
 *
 * The service name may also come from LEADFORGE_SERVICE (the image sets it). The port is PORT
 * (default 8080) on SERVICE_HOST (the chart sets 0.0.0.0). On SIGTERM the service stops taking
 * requests (/readyz turns 503), finishes the ones in flight and exits; SHUTDOWN_TIMEOUT_SECONDS caps
 * that wait and must stay below the pod's terminationGracePeriodSeconds (the chart derives both).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { SERVICES, type ServiceName } from '@leadforge/contracts';
import { startService, type ServiceDefinition } from '@leadforge/kit/service';
import { ConfigError, KitVariables, loadKitConfig, loadVariable } from '@leadforge/kit/config';
import { databaseUrlFor, migrate, openDatabase } from '@leadforge/kit/db';

/** Compiled, this file is packages/service-runner/dist/runService.js and the services are their dist/index.js. */
const COMPILED = import.meta.url.endsWith('.js');
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface Invocation {
  service: ServiceName;
  migrateOnly: boolean;
  ifDatabaseExists: boolean;
}

const OPTIONS = ['--migrate-only', '--if-database-exists'];
/** Past the shutdown timeout, how long the process waits for its stop before it exits anyway. */
const STOP_BACKSTOP_MS = 3_000;

/** Reads `<service> [--migrate-only [--if-database-exists]]` (service from LEADFORGE_SERVICE when not given). */
export function parseInvocation(argv: string[], env: NodeJS.ProcessEnv): Invocation {
  const flags = argv.filter((arg) => arg.startsWith('--'));
  const unknownFlag = flags.find((flag) => !OPTIONS.includes(flag));
  if (unknownFlag) throw new Error(`Unknown option ${unknownFlag}; the options are ${OPTIONS.join(' and ')}`);
  const name = argv.find((arg) => !arg.startsWith('--')) ?? env.LEADFORGE_SERVICE;
  if (!name) throw new Error(`Name the service to run: one of ${SERVICES.join(', ')} (argument or LEADFORGE_SERVICE)`);
  if (!(SERVICES as readonly string[]).includes(name)) throw new Error(`Unknown service "${name}"; expected one of ${SERVICES.join(', ')}`);
  const migrateOnly = flags.includes('--migrate-only');
  const ifDatabaseExists = flags.includes('--if-database-exists');
  if (ifDatabaseExists && !migrateOnly) throw new Error('--if-database-exists goes with --migrate-only');
  return { service: name as ServiceName, migrateOnly, ifDatabaseExists };
}

export async function loadDefinition(service: ServiceName, root = ROOT): Promise<ServiceDefinition> {
  const relative = path.join('services', service, ...(COMPILED ? ['dist', 'index.js'] : ['src', 'index.ts']));
  const entry = path.join(root, relative);
  if (!fs.existsSync(entry)) throw new Error(`The ${service} service is not in this image (no ${relative})`);
  const module = await import(entry);
  return module.default as ServiceDefinition;
}

/**
 * This process runs one service, so an in-process bus would keep its events from every other pod:
 * in production the brokers are required (`npm start` runs all services in one process and may use
 * the in-process bus; it does not come through here).
 */
export function requireBrokersInProduction(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV === 'production' && !env.KAFKA_BROKERS?.trim()) {
    throw new ConfigError('KAFKA_BROKERS', 'is required in production: this process runs one service, and its events must reach the others');
  }
}

/** The same migrations the service runs at start, without serving: the chart's pre-upgrade Job. */
export async function migrateOnly(def: ServiceDefinition, env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadKitConfig(def.name, env);
  const db = openDatabase({ service: def.name, url: config.databaseUrl, dataDir: config.dataDir === ':memory:' ? undefined : config.dataDir });
  try {
    await migrate(db, def.migrationsDir);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const env = process.env;
  const log = pino({ level: env.LOG_LEVEL ?? (env.NODE_ENV === 'production' ? 'info' : 'warn') });
  let invocation: Invocation;
  let def: ServiceDefinition;
  try {
    invocation = parseInvocation(process.argv.slice(2), env);
    def = await loadDefinition(invocation.service);
  } catch (err) {
    log.fatal((err as Error).message);
    process.exit(2);
  }

  if (invocation.migrateOnly) {
    if (invocation.ifDatabaseExists && !databaseUrlFor(def.name, env)) {
      log.info({ service: def.name }, 'no database configured yet; the service migrates it at its first start');
      return;
    }
    await migrateOnly(def, env);
    log.info({ service: def.name }, 'migrations applied');
    return;
  }

  requireBrokersInProduction(env);
  const { shutdownTimeoutMs, databaseUrl } = loadKitConfig(def.name, env);
  // Migrate under the lock first; the kit's own migration at start then finds nothing to do.
  if (databaseUrl) await migrateOnly(def, env);
  const running = await startService(def, { env, logger: log, port: loadVariable(KitVariables, 'PORT', env) });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, service: def.name }, 'stopping');
    // The stop itself goes on past a step that overruns (and says which); this is the backstop for a
    // stop that still has not ended, within the pod's grace period (preStop + shutdown + 5 s).
    setTimeout(() => {
      log.error({ service: def.name, shutdownTimeoutMs }, 'the stop did not end by the shutdown timeout; exiting anyway');
      process.exit(1);
    }, shutdownTimeoutMs + STOP_BACKSTOP_MS).unref();
    const stopped = await running.stop().then(() => true, (err) => { log.error({ err, service: def.name }, 'the stop failed'); return false; });
    process.exit(stopped ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().catch((err) => {
    // A configuration error names the variable; its stack would only bury that line.
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(err instanceof ConfigError ? 2 : 1);
  });
}

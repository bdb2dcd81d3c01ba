import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import type { TObject } from 'typebox';
import type { ApiKeyIdentity, ServiceName } from '@leadforge/contracts';
import { kitConfigFrom, type KitConfig } from '../config/kitConfig.ts';
import { ConfigProblems } from '../config/environment.ts';
import { openDatabase, type Db } from '../db/database.ts';
import type { EmbeddedEngineOptions } from '../db/embeddedEngine.ts';
import { migrate } from '../db/migrations.ts';
import type { Bus, Subscription } from '../events/bus/bus.ts';
import type { QueueDeclaration } from '../work/leasedQueue.ts';
import { registerParkedWorkRoutes } from './parkedWorkRoutes.ts';
import { createBus } from '../events/bus/createBus.ts';
import { OutboxRelay } from '../events/outbox/outbox.ts';
import { consume, type ConsumeOptions, type EventHandlers } from '../events/consumer/eventConsumer.ts';
import { stopInOrder } from '../work/deadline.ts';
import { detailedFrameworkErrors, registerErrorHandling } from '../http/errorHandler.ts';
import { registerHostileInputChecks } from '../http/hostileInput.ts';
import { registerClientAddress, trustedProxies } from '../http/clientAddress.ts';
import { schemaValidatorCompiler } from '../http/schemaValidation.ts';
import { registerMetrics } from '../http/metrics.ts';
import { serverStopStep } from '../http/serverStop.ts';
import { postgresAnswers, registerHealth } from '../http/health.ts';
import { registerAuthentication, type AuthenticationOptions, type UserStanding } from '../http/authentication.ts';
import { InternalClient, internalGuard } from '../http/internalCalls.ts';
import type { App } from '../http/declaredRoutes.ts';
import { registerRateLimits, type CounterStore } from '../http/rateLimits.ts';
import { startTracing } from '../tracing.ts';

export type { App };

/** Everything a service's code gets handed: its own database, the bus, config, calls to others. */
export interface ServiceContext {
  name: ServiceName;
  config: KitConfig;
  /** The service's own configuration (its `config.ts`), read with the kit's at start. */
  serviceConfig: unknown;
  env: NodeJS.ProcessEnv;
  db: Db;
  bus: Bus;
  log: Logger;
  internal: InternalClient;
  relay: OutboxRelay;
  redis?: Redis;
  /** Rate-limit counters (Redis when configured). */
  counters: CounterStore;
  /** This replica's name: the same after it restarts, never shared by two live processes (`replicaName`). */
  replica: string;
  /** Starts one of the service's consumers: its group, the topics it reads, a handler per event type it takes. */
  consume(group: string, topics: string[], handlers: EventHandlers, options?: ConsumeOptions): Promise<Subscription>;
}

export interface ServiceDefinition {
  name: ServiceName;
  /** Folder of the service's plain-SQL migrations. */
  migrationsDir?: string;
  /** Tuning of its embedded database in local mode. */
  embeddedDatabase?: EmbeddedEngineOptions;
  /**
   * Reads the service's own variables (its `config.ts`) with the kit's, once, before anything starts:
   * a bad or missing variable is added to `problems`, and the start fails naming every one of them.
   */
  config?(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: KitConfig): unknown;
  /** The schema of the variables `config` reads (its `config.ts`), for docs/configuration.md and the chart's check. */
  variables?: TObject;
  /** Overrides how tokens are checked (the auth service uses its own keys and users table). */
  authentication?: (ctx: ServiceContext) => Partial<AuthenticationOptions>;
  /** The service's queues (LeasedQueue), for the parked-work view and its replay (`/internal/parked-work`). */
  queues?: readonly QueueDeclaration[];
  /** Registers the service's routes. */
  routes(app: App, ctx: ServiceContext): Promise<void>;
  /** Starts consumers and background work once the database is ready; returns how to stop them. */
  start?(ctx: ServiceContext, app: App): Promise<(() => Promise<void>) | void>;
}

export interface RunningService {
  name: ServiceName;
  url: string;
  app: App;
  ctx: ServiceContext;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Overrides the config's port (0 picks a free one). */
  port?: number;
  /** A bus to share (local mode: all services of one process share the in-process bus). */
  bus?: Bus;
  logger?: Logger;
}

/** How often a relay on an embedded database looks for rows no commit woke it for (none are expected). */
const EMBEDDED_OUTBOX_POLL_MS = 5_000;

/** The largest request body a service reads; the edge (Envoy) refuses larger ones before they reach it. */
export const REQUEST_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * What stays the same when a replica restarts and is never shared by two live processes, so a
 * restarted replica takes back its own leases at once: an embedded database belongs to one process
 * at a time, so there it is the one replica (local mode picks new ports at each start); on a
 * database server, the host and the port it serves on (a pod's name, or the port when replicas share a machine).
 */
export function replicaName(config: Pick<KitConfig, 'databaseUrl'>, port: number): string {
  if (!config.databaseUrl) return `${os.hostname()}/embedded`;
  // Port 0 is picked at listen time (tests): it names nothing that survives a restart, so a name of its own.
  return `${os.hostname()}/${port || `${process.pid}-${crypto.randomBytes(4).toString('hex')}`}`;
}

/** The kit's configuration and the service's own, read once: every problem of both is thrown together. */
export function serviceConfigOf(def: Pick<ServiceDefinition, 'name' | 'config'>, env: NodeJS.ProcessEnv): { config: KitConfig; serviceConfig: unknown } {
  const problems = new ConfigProblems();
  const config = kitConfigFrom(def.name, env, problems);
  const serviceConfig = def.config?.(env, problems, config);
  problems.throwIfAny();
  return { config, serviceConfig };
}

/** The one way a service starts: config, database and migrations, bus, HTTP server, relay, consumers. */
export async function startService(def: ServiceDefinition, options: StartOptions = {}): Promise<RunningService> {
  const env = options.env ?? process.env;
  const { config, serviceConfig } = serviceConfigOf(def, env);
  const log = (options.logger ?? pino({ level: config.logLevel })).child({ service: def.name });
  await startTracing(config, log);

  // DATA_DIR=:memory: keeps embedded databases in memory (tests).
  const db = openDatabase({ service: def.name, url: config.databaseUrl, dataDir: config.dataDir === ':memory:' ? undefined : config.dataDir, embedded: def.embeddedDatabase });
  // An embedded database's first boot can outlast the pool's 30 s connection-create timeout when
  // every service of the local stack boots at once on a busy machine: wait for it outside the pool.
  await (db.client as { pglite?: { waitReady: Promise<void> } }).pglite?.waitReady;
  await migrate(db, def.migrationsDir);
  const bus = options.bus ?? createBus(config.kafka, log);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
  const internal = new InternalClient(config.serviceUrls, config.internalToken);
  const replica = replicaName(config, options.port ?? config.port);
  // Every write to an embedded database is this process's own, and its commits wake the relay: the
  // poll is then only a fallback. Replicas sharing a database server see each other's rows only by
  // polling, at the relay's own default.
  const relay = new OutboxRelay({ db, bus, service: def.name, logger: log, replica, pollMs: config.databaseUrl ? undefined : EMBEDDED_OUTBOX_POLL_MS });
  let shuttingDown = false;
  const fastifyLog: FastifyBaseLogger = log;
  const app: App = Fastify({
    loggerInstance: fastifyLog,
    bodyLimit: REQUEST_BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    trustProxy: trustedProxies(config.trustedProxies),
    ...detailedFrameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const serverStop = serverStopStep(app);
  registerClientAddress(app, config.internalToken);
  app.setValidatorCompiler(schemaValidatorCompiler());
  registerErrorHandling(app);
  registerHostileInputChecks(app);
  await app.register(helmet, { contentSecurityPolicy: false, global: true });
  registerMetrics(app, def.name);
  const counters = await registerRateLimits(app, redis);
  const host = { name: def.name, db, bus, log };
  const ctx: ServiceContext = {
    name: def.name, config, serviceConfig, env, db, bus, log, internal, relay, redis, counters, replica,
    consume: (group, topics, handlers, consumeOptions) => consume(host, group, topics, handlers, consumeOptions),
  };
  // PostgreSQL is checked on a connection of its own, never queued behind the pool's work.
  const databaseProbe = config.databaseUrl ? postgresAnswers(config.databaseUrl) : undefined;
  registerHealth(app, [
    { name: 'database', check: databaseProbe?.check ?? (async () => { await db.raw('select 1'); return true; }) },
    // Reported, not gating: the outbox keeps events through a bus outage, so HTTP writes go on.
    { name: 'bus', check: () => bus.ready(), gatesReadiness: false },
  ], () => shuttingDown);
  const overrides = def.authentication?.(ctx) ?? {};
  await registerAuthentication(app, {
    jwksBaseUrl: config.serviceUrls.auth,
    lookupStanding: (userId) => internal.call<UserStanding | null>('auth', 'GET', `/internal/users/${encodeURIComponent(userId)}/standing`, { timeoutMs: 2000 })
      .catch((err) => { if (err?.statusCode === 404) return null; throw err; }),
    ...overrides,
    apiKeys: {
      verify: (key) => internal.call<ApiKeyIdentity | null>('auth', 'POST', '/internal/api-keys/verify', { body: { key }, timeoutMs: 2000, idempotent: true })
        .catch((err) => { if (err?.statusCode === 404) return null; throw err; }),
      limit: { store: counters, perMinute: config.apiKeyRequestsPerMinute },
      ...overrides.apiKeys,
    },
  });
  app.decorate('requireInternal', internalGuard(config.internalToken));
  registerParkedWorkRoutes(app, def.name, db, def.queues ?? []);
  await def.routes(app, ctx);

  await app.listen({ host: config.host, port: options.port ?? config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;

  relay.start();
  const stopWork = (await def.start?.(ctx, app)) ?? undefined;
  log.info({ url }, `${def.name} service listening`);

  return {
    name: def.name,
    url,
    app,
    ctx,
    async stop() {
      shuttingDown = true;
      await stopInOrder([
        // In-flight requests finish first; at the deadline the connections still open are closed.
        serverStop,
        { name: 'background work', stop: () => stopWork?.() },
        { name: 'the outbox relay', stop: () => relay.stop() },
        { name: 'the bus', stop: () => (options.bus ? undefined : bus.close()) },
        { name: 'the database', stop: async () => { redis?.disconnect(); await databaseProbe?.close(); await db.destroy(); } },
      ], { ms: config.shutdownTimeoutMs, log, what: `the ${def.name} service` });
    },
  };
}

import path from 'node:path';
import pino from 'pino';
import type { ServiceName } from '@leadforge/contracts';
import { startService, type RunningService, type ServiceDefinition } from '@leadforge/kit/service';
import { shutdownTimeoutMsOf } from '@leadforge/kit/config';
import { createStackBus } from '@leadforge/kit/events';
import { startGateway, type RunningGateway } from '@leadforge/gateway';
import { SERVICE_DEFINITIONS } from '../services.ts';
import { freePort, reservePort } from '../freePort.ts';

export interface StackOptions {
  /** Gateway port; 0 picks a free one. */
  port: number;
  env?: NodeJS.ProcessEnv;
  webDist?: string;
  services?: ServiceDefinition[];
}

export interface RunningStack {
  url: string;
  gateway: RunningGateway;
  services: RunningService[];
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/**
 * Local mode: every service in this process on its own loopback port, sharing the stack's in-process
 * bus (or Kafka when KAFKA_BROKERS is set), each with its own database; the gateway in front.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const definitions = options.services ?? SERVICE_DEFINITIONS;
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  const logger = pino({ level: env.LOG_LEVEL ?? 'warn' });
  // The gateway listens on its port only once the services have started: none of theirs may be the same.
  if (options.port) reservePort(options.port);
  const ports = new Map<ServiceName, number>();
  for (const def of definitions) {
    const key = `${def.name.toUpperCase()}_PORT`;
    const port = env[key] ? Number(env[key]) : await freePort();
    ports.set(def.name, port);
    env[key] = String(port);
    env[`${def.name.toUpperCase()}_URL`] ??= `http://127.0.0.1:${port}`;
  }
  env.PUBLIC_URL ??= `http://localhost:${options.port || env.PORT || 8080}`;
  // A page-parsing worker is a thread with the parsing code loaded (~150 MB resident); the scraper's
  // own default, one per core but one, would take most of a many-core laptop's memory. Local mode
  // parses with one (a 200-lead search waits on the network, not on parsing) unless told otherwise.
  env.SCRAPER_PARSE_WORKERS ??= '1';

  // Without Kafka, an in-process bus of this stack's own, closed with it.
  const bus = createStackBus(env, logger);
  // One service that fails to start stops the others (and the gateway is not started): never a
  // half-started product. allSettled, so none is still starting once the others are stopped.
  const starts = await Promise.allSettled(definitions.map((def) => startService(def, { env, bus, logger, port: ports.get(def.name) })));
  const services = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopServices = async () => {
    await Promise.all(services.map((s) => s.stop().catch((err) => logger.error({ err, service: s.name }, 'stopping after a failed start'))));
    await bus.close();
  };
  const failed = starts.findIndex((s) => s.status === 'rejected');
  if (failed >= 0) {
    await stopServices();
    const reason = (starts[failed] as PromiseRejectedResult).reason;
    throw new Error(`the ${definitions[failed].name} service did not start: ${reason?.message ?? reason}`, { cause: reason });
  }
  const serviceUrls = Object.fromEntries(services.map((s) => [s.name, env[`${s.name.toUpperCase()}_URL`]!]));
  let gateway: RunningGateway;
  try {
    gateway = await startGateway({ port: options.port, serviceUrls, webDist: options.webDist, logger, shutdownTimeoutMs: shutdownTimeoutMsOf(env) });
  } catch (err) {
    await stopServices();
    throw err;
  }

  return {
    url: gateway.url,
    gateway,
    services,
    env,
    async stop() {
      await gateway.close();
      await Promise.all(services.map((s) => s.stop()));
      await bus.close();
    },
  };
}

export const DEFAULT_WEB_DIST = path.resolve(new URL('../../../web/dist', import.meta.url).pathname);

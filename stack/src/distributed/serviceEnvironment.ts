import { SERVICES, type ServiceName } from '@leadforge/contracts';
import type { DistributedSecrets } from './secrets.ts';

/** One service process: a service, or one replica of the scraper. */
export interface Instance {
  /** `auth`, or `scraper-2` for a replica. */
  name: string;
  service: ServiceName;
}

const LOOPBACK_URL = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/** Every service once, the scraper `scraperReplicas` times; auth first. */
export function instancesOf(scraperReplicas: number): Instance[] {
  return SERVICES.flatMap((service): Instance[] => service === 'scraper'
    ? Array.from({ length: scraperReplicas }, (_, i) => ({ name: `scraper-${i + 1}`, service }))
    : [{ name: service, service }]);
}

export interface ServiceEnvironmentOptions {
  /** The launcher's own environment: passed on, beneath what the topology sets. */
  env: NodeJS.ProcessEnv;
  /** Envoy's public port: the public address's when PUBLIC_URL is unset. */
  port: number;
  dataDir: string;
  secrets: DistributedSecrets;
  redisUrl: string;
  kafkaBootstrap: string;
  databaseUrl(service: ServiceName): string;
  instances: Instance[];
  /** Each instance's port, by its name. */
  ports: Map<string, number>;
}

/**
 * The environment every service process and migration runs with: production, the generated secrets,
 * and the topology's addresses (its own database, Redis, Kafka, and each service at its first instance).
 */
export function serviceEnvironment(options: ServiceEnvironmentOptions): NodeJS.ProcessEnv {
  const { env, instances, ports } = options;
  const urlOf = (service: ServiceName) => `http://127.0.0.1:${ports.get(instances.find((i) => i.service === service)!.name)}`;
  const publicUrl = env.PUBLIC_URL || `http://localhost:${options.port}`;
  return {
    ...env,
    NODE_ENV: 'production',
    LOG_LEVEL: env.LOG_LEVEL || 'info',
    PUBLIC_URL: publicUrl,
    // The labelled stand-ins (test checkout, robot check, payouts, loopback sites) where no
    // credentials are given; the kit allows them only while the public address is loopback.
    LEADFORGE_STAND_INS: env.LEADFORGE_STAND_INS || String(LOOPBACK_URL.test(publicUrl)),
    ...options.secrets,
    DATA_DIR: options.dataDir,
    DATABASE_URL: '',
    REDIS_URL: options.redisUrl,
    KAFKA_BROKERS: options.kafkaBootstrap,
    ...Object.fromEntries(SERVICES.map((service) => [`${service.toUpperCase()}_DATABASE_URL`, options.databaseUrl(service)])),
    ...Object.fromEntries(SERVICES.map((service) => [`${service.toUpperCase()}_URL`, urlOf(service)])),
  };
}

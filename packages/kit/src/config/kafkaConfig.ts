import fs from 'node:fs';
import type { SASLOptions } from 'kafkajs';
import { ConfigError, readBool, readInt, readVar } from './environment.ts';

/** How the services reach Kafka, from `KAFKA_*` variables (docs/configuration.md). */
export interface KafkaConfig {
  brokers: string[];
  /** `${KAFKA_CLIENT_ID}-${service}`, so the broker's logs and quotas tell the services apart. */
  clientId: string;
  /** Partitions of a topic the bus creates. */
  partitions: number;
  /** Put before every topic and consumer group name, for several deployments on one cluster. */
  topicPrefix: string;
  sasl?: SASLOptions;
  /** TLS to the brokers; `ca` replaces the system's trusted certificates. */
  ssl?: { ca?: string };
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** Partitions one subscription handles at once; each handler may hold a database connection. */
  consumerConcurrency: number;
  /** A publish the brokers have not acknowledged within this fails (the outbox retries it). */
  publishTimeoutMs: number;
}

const BROKER = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/;
const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/** The one reading of KAFKA_BROKERS: comma-separated host:port pairs; empty means no Kafka. */
export function kafkaBrokers(env: NodeJS.ProcessEnv): string[] {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  const bad = brokers.find((broker) => !BROKER.test(broker));
  if (bad) throw new ConfigError('KAFKA_BROKERS', `has a bad entry "${bad}" (comma-separated host:port pairs)`);
  return brokers;
}

function readSasl(env: NodeJS.ProcessEnv): SASLOptions | undefined {
  const mechanism = readVar(env, 'KAFKA_SASL_MECHANISM')?.toLowerCase();
  if (!mechanism) return undefined;
  if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
    throw new ConfigError('KAFKA_SASL_MECHANISM', `must be one of ${SASL_MECHANISMS.join(', ')}, got "${mechanism}"`);
  }
  const username = readVar(env, 'KAFKA_SASL_USERNAME', { required: true, hint: `the user for ${mechanism}` })!;
  const password = readVar(env, 'KAFKA_SASL_PASSWORD', { required: true, hint: `the password for ${mechanism}` })!;
  return { mechanism: mechanism as (typeof SASL_MECHANISMS)[number], username, password } as SASLOptions;
}

function readSsl(env: NodeJS.ProcessEnv): { ca?: string } | undefined {
  const caFile = readVar(env, 'KAFKA_SSL_CA_FILE');
  if (!readBool(env, 'KAFKA_SSL', Boolean(caFile))) {
    if (caFile) throw new ConfigError('KAFKA_SSL_CA_FILE', 'is set while KAFKA_SSL=false');
    return undefined;
  }
  if (!caFile) return {};
  try {
    return { ca: fs.readFileSync(caFile, 'utf8') };
  } catch (error) {
    throw new ConfigError('KAFKA_SSL_CA_FILE', `cannot be read (${(error as Error).message})`);
  }
}

/** Kafka's settings when KAFKA_BROKERS is set, else undefined (the in-process bus). */
export function readKafkaConfig(env: NodeJS.ProcessEnv, service?: string): KafkaConfig | undefined {
  const brokers = kafkaBrokers(env);
  if (!brokers.length) return undefined;
  const base = readVar(env, 'KAFKA_CLIENT_ID', { default: 'leadforge', pattern: /^[A-Za-z0-9._-]+$/, hint: 'letters, digits, . _ -' })!;
  const sessionTimeoutMs = readInt(env, 'KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000, 300_000);
  // The group coordinator expects a few heartbeats per session.
  const heartbeatIntervalMs = readInt(env, 'KAFKA_HEARTBEAT_INTERVAL_MS', 3_000, 100, Math.floor(sessionTimeoutMs / 3));
  return {
    brokers,
    clientId: service ? `${base}-${service}` : base,
    partitions: readInt(env, 'KAFKA_TOPIC_PARTITIONS', 6, 1, 1000),
    topicPrefix: readVar(env, 'KAFKA_TOPIC_PREFIX', { default: '', pattern: /^[A-Za-z0-9._-]*$/, hint: 'letters, digits, . _ -' })!,
    sasl: readSasl(env),
    ssl: readSsl(env),
    sessionTimeoutMs,
    heartbeatIntervalMs,
    consumerConcurrency: readInt(env, 'KAFKA_CONSUMER_CONCURRENCY', 2, 1, 100),
    publishTimeoutMs: readInt(env, 'KAFKA_PUBLISH_TIMEOUT_MS', 15_000, 1_000, 600_000),
  };
}

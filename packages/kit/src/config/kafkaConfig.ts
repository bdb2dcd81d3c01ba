import fs from 'node:fs';
import type { SASLOptions } from 'kafkajs';
import { Type, type Static } from 'typebox';
import { checkBetween, collectConfig, readVariables, Variable, type ConfigProblems } from './environment.ts';

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

const NAME = /^[A-Za-z0-9._-]*$/;

export const KafkaVariables = Type.Object({
  KAFKA_BROKERS: Variable.list({
    description: 'Kafka bootstrap servers, comma-separated `host:port`; unset, the in-process bus',
    defaultText: 'in-process bus',
    item: /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/,
    hint: 'comma-separated host:port pairs',
    example: 'kafka-0.kafka:9092,kafka-1.kafka:9092',
  }),
  KAFKA_CLIENT_ID: Variable.string({ description: 'Kafka client id; each service connects as `<id>-<service>`', default: 'leadforge', pattern: /^[A-Za-z0-9._-]+$/, hint: 'letters, digits, . _ -' }),
  KAFKA_TOPIC_PARTITIONS: Variable.integer({ description: 'partitions of the topics the services create', default: 6, minimum: 1, maximum: 1000 }),
  KAFKA_TOPIC_PREFIX: Variable.string({ description: 'put before every topic and consumer group name (several deployments on one cluster)', default: '', defaultText: 'none', pattern: NAME, hint: 'letters, digits, . _ -' }),
  KAFKA_SASL_MECHANISM: Variable.choice(['plain', 'scram-sha-256', 'scram-sha-512'] as const, { description: 'SASL authentication to the brokers', defaultText: 'none' }),
  KAFKA_SASL_USERNAME: Variable.string({ description: 'the SASL user; required with `KAFKA_SASL_MECHANISM`' }),
  KAFKA_SASL_PASSWORD: Variable.string({ description: 'the SASL password; required with `KAFKA_SASL_MECHANISM`', secret: true }),
  KAFKA_SSL: Variable.boolean({ description: '`true`: TLS to the brokers', defaultText: '`true` when `KAFKA_SSL_CA_FILE` is set, else `false`' }),
  KAFKA_SSL_CA_FILE: Variable.string({ description: 'a PEM file of the CA to trust instead of the system\'s (implies TLS)' }),
  KAFKA_PUBLISH_TIMEOUT_MS: Variable.integer({ description: 'a publish the brokers do not acknowledge in this fails; the outbox retries it', default: 15_000, minimum: 1_000, maximum: 600_000 }),
  KAFKA_SESSION_TIMEOUT_MS: Variable.integer({ description: 'consumer group session timeout', default: 30_000, minimum: 6_000, maximum: 300_000 }),
  KAFKA_HEARTBEAT_INTERVAL_MS: Variable.integer({ description: 'consumer group heartbeat; at most a third of the session timeout', default: 3_000, minimum: 100, maximum: 100_000 }),
  KAFKA_CONSUMER_CONCURRENCY: Variable.integer({ description: 'partitions one consumer handles at once; keep below the database pool (10)', default: 2, minimum: 1, maximum: 100 }),
});
type KafkaVariables = Static<typeof KafkaVariables>;

function saslOf(vars: KafkaVariables, problems: ConfigProblems): SASLOptions | undefined {
  const mechanism = vars.KAFKA_SASL_MECHANISM;
  if (!mechanism) return undefined;
  if (!vars.KAFKA_SASL_USERNAME) problems.add('KAFKA_SASL_USERNAME', `is required (the user for ${mechanism})`);
  if (!vars.KAFKA_SASL_PASSWORD) problems.add('KAFKA_SASL_PASSWORD', `is required (the password for ${mechanism})`);
  return { mechanism, username: vars.KAFKA_SASL_USERNAME ?? '', password: vars.KAFKA_SASL_PASSWORD ?? '' } as SASLOptions;
}

function sslOf(vars: KafkaVariables, problems: ConfigProblems): { ca?: string } | undefined {
  const caFile = vars.KAFKA_SSL_CA_FILE;
  if (!(vars.KAFKA_SSL ?? Boolean(caFile))) {
    if (caFile) problems.add('KAFKA_SSL_CA_FILE', 'is set while KAFKA_SSL=false');
    return undefined;
  }
  if (!caFile) return {};
  try {
    return { ca: fs.readFileSync(caFile, 'utf8') };
  } catch (error) {
    problems.add('KAFKA_SSL_CA_FILE', `cannot be read (${(error as Error).message})`);
    return {};
  }
}

/** Kafka's settings when KAFKA_BROKERS names brokers, else undefined (the in-process bus). */
export function kafkaConfigFrom(vars: KafkaVariables, problems: ConfigProblems, service?: string): KafkaConfig | undefined {
  const brokers = vars.KAFKA_BROKERS ?? [];
  if (!brokers.length) return undefined;
  // The group coordinator expects a few heartbeats per session.
  checkBetween(problems, 'KAFKA_HEARTBEAT_INTERVAL_MS', vars.KAFKA_HEARTBEAT_INTERVAL_MS, 100, Math.floor(vars.KAFKA_SESSION_TIMEOUT_MS / 3));
  return {
    brokers,
    clientId: service ? `${vars.KAFKA_CLIENT_ID}-${service}` : vars.KAFKA_CLIENT_ID,
    partitions: vars.KAFKA_TOPIC_PARTITIONS,
    topicPrefix: vars.KAFKA_TOPIC_PREFIX,
    sasl: saslOf(vars, problems),
    ssl: sslOf(vars, problems),
    sessionTimeoutMs: vars.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatIntervalMs: vars.KAFKA_HEARTBEAT_INTERVAL_MS,
    consumerConcurrency: vars.KAFKA_CONSUMER_CONCURRENCY,
    publishTimeoutMs: vars.KAFKA_PUBLISH_TIMEOUT_MS,
  };
}

/** Kafka's settings alone (the bus, the launchers), every problem thrown together. */
export function readKafkaConfig(env: NodeJS.ProcessEnv, service?: string): KafkaConfig | undefined {
  return collectConfig((problems) => kafkaConfigFrom(readVariables(KafkaVariables, env, problems), problems, service));
}

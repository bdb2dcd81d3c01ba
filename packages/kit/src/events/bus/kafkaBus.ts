import type { ConnectionOptions } from 'node:tls';
import kafkajs, { type LogEntry, type SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import type { Bus, SubscribeOptions, Subscription } from './bus.ts';
import { GroupMember, type GroupMemberSettings } from './kafkaGroupMember.ts';
import { kafkaProducer, orderedPublisher, withTimeout } from './kafkaProducer.ts';
import { kafkaTopics } from './kafkaTopics.ts';
// Before any client connects: an idle connection otherwise spins a timer (see the module).
import './kafkajsIdleTimer.ts';

const { Kafka, logLevel } = kafkajs;

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** Partitions of a topic this bus creates; consumers of one group scale up to this many. */
  partitions?: number;
  /** -1: the broker's default. */
  replicationFactor?: number;
  /** Per-topic settings for a topic this bus creates (e.g. retention.ms); the broker's defaults otherwise. */
  topicConfig?: (topic: string) => Record<string, string>;
  /** Put before every topic and group name on the wire; callers keep using the plain names. */
  topicPrefix?: string;
  sasl?: SASLOptions;
  ssl?: ConnectionOptions;
  /** A publish the brokers have not acknowledged within this rejects (default 15 s). */
  publishTimeoutMs?: number;
  /** A member silent for this long is dropped from its group (default 30 s). */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Partitions one subscription handles at once (default 2): each handler may hold a database connection. */
  consumerConcurrency?: number;
  /** Ceiling of the wait before a message whose handler threw is handled again; doubles up to maxRetryMs, jittered (default 500 ms, 60 s). */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * A handled offset kafkajs has not committed after this long is committed by the bus (default 5 s).
   * kafkajs commits after a batch, and after a failed commit only after the next batch with messages:
   * without this, the last messages before a broker outage could stay uncommitted until a restart.
   */
  lateCommitMs?: number;
  /** Ceiling of the wait before a member kafkajs gave up on is started again; doubles up to maxRetryMs, jittered (default 5 s). */
  restartMs?: number;
  /**
   * How long the broker holds a fetch that finds nothing new (default 1 s). A closing member waits for
   * its fetch to return, so this bounds how long a close takes; kafkajs's own default is 5 s.
   */
  fetchMaxWaitMs?: number;
}

/** kafkajs warns on every start that bounded retries may duplicate; consumers are idempotent, so that is the point. */
const EXPECTED_WARNINGS = /^Limiting retries for the idempotent producer/;

function kafkaLogCreator(logger: Logger) {
  return () => ({ namespace, level, log: { message, timestamp: _timestamp, ...extra } }: LogEntry) => {
    const fields = { namespace, ...extra };
    if (level === logLevel.ERROR) logger.error(fields, message);
    else if (level === logLevel.WARN) { if (!EXPECTED_WARNINGS.test(message)) logger.warn(fields, message); }
    else if (level === logLevel.INFO) logger.info(fields, message);
    else logger.debug(fields, message);
  };
}

/**
 * The bus on Kafka: JSON envelope as the value, aggregate id as the key, traceparent as a header.
 * It composes a producer (kafkaProducer.ts), a consumer group member per subscription
 * (kafkaGroupMember.ts) and the topics it creates (kafkaTopics.ts).
 */
export function createKafkaBus(options: KafkaBusOptions): Bus {
  const { logger } = options;
  const prefix = options.topicPrefix ?? '';
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ssl: options.ssl,
    sasl: options.sasl,
    connectionTimeout: 3_000,
    // Bounded: a publish or connect fails within seconds while the brokers are away, rather than never.
    retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
    ...(logger ? { logCreator: kafkaLogCreator(logger) } : {}),
  });
  const producer = kafkaProducer(kafka);
  const admin = kafka.admin();
  let connecting: Promise<unknown> | undefined;
  const connect = () => {
    connecting ??= Promise.all([producer.connect(), admin.connect()]).catch((error) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };
  const topics = kafkaTopics({
    admin,
    connect,
    prefix,
    partitions: options.partitions ?? 6,
    replicationFactor: options.replicationFactor ?? -1,
    topicConfig: options.topicConfig,
  });
  const publish = orderedPublisher({ producer, topics, prefix, publishTimeoutMs: options.publishTimeoutMs ?? 15_000 });
  const memberSettings: GroupMemberSettings = {
    kafka,
    prefix,
    logger,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3_000,
    fetchMaxWaitMs: options.fetchMaxWaitMs ?? 1_000,
    consumerConcurrency: options.consumerConcurrency ?? 2,
    retryMs: options.retryMs ?? 500,
    maxRetryMs: options.maxRetryMs ?? 60_000,
    restartMs: options.restartMs ?? 5_000,
    lateCommitMs: options.lateCommitMs ?? 5_000,
  };
  const members = new Set<GroupMember>();

  async function subscribe({ group, topics: names, handler, fromBeginning = true }: SubscribeOptions): Promise<Subscription> {
    await topics.ensure(names);
    const member = new GroupMember(memberSettings, group, names, handler, fromBeginning);
    await member.start();
    members.add(member);
    return {
      async close() {
        members.delete(member);
        await member.stop();
      },
    };
  }

  return {
    kind: 'kafka',
    publish,
    subscribe,
    ready: () => topics.reachable(),

    async close() {
      await Promise.allSettled([...members].map((member) => member.stop()));
      members.clear();
      // With the brokers away a disconnect may wait on requests that will never be answered.
      await withTimeout(Promise.allSettled([producer.disconnect(), admin.disconnect()]), 5_000, 'kafka disconnect').catch(() => undefined);
    },
  };
}

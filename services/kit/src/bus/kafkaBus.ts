import kafkajs, { type Consumer, type EachMessagePayload, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import { Gauge, register } from 'prom-client';
import type { EventEnvelope } from '@leadforge/contracts';
import type { Bus, BusMessage, SubscribeOptions, Subscription } from './bus.ts';

const { Kafka, Partitioners, logLevel } = kafkajs;

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
}

const consumerLag = (register.getSingleMetric('leadforge_bus_consumer_lag') as Gauge<'group' | 'topic' | 'partition'> | undefined)
  ?? new Gauge({
    name: 'leadforge_bus_consumer_lag',
    help: 'Messages in a partition not yet handled by the consumer group, as of its last batch.',
    labelNames: ['group', 'topic', 'partition'],
  });

function kafkaLogCreator(logger: Logger) {
  return () => ({ namespace, level, log: { message, timestamp: _timestamp, ...extra } }: LogEntry) => {
    const fields = { namespace, ...extra };
    if (level === logLevel.ERROR) logger.error(fields, message);
    else if (level === logLevel.WARN) logger.warn(fields, message);
    else if (level === logLevel.INFO) logger.info(fields, message);
    else logger.debug(fields, message);
  };
}

/** The bus on Kafka: JSON envelope as the value, aggregate id as the key, traceparent as a header. */
export function createKafkaBus(options: KafkaBusOptions): Bus {
  const { logger } = options;
  const partitions = options.partitions ?? 6;
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ...(logger ? { logCreator: kafkaLogCreator(logger) } : {}),
  });
  // Idempotent (hence acks=all) and one request in flight: no duplicates and no reordering on retry.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  const admin = kafka.admin();
  let connecting: Promise<unknown> | undefined;
  const connect = () => {
    connecting ??= Promise.all([producer.connect(), admin.connect()]).catch((error) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };
  const ensuredTopics = new Map<string, Promise<unknown>>();
  const consumers = new Set<Consumer>();

  function ensureTopics(topics: string[]): Promise<unknown> {
    return Promise.all(topics.map((topic) => {
      let ensured = ensuredTopics.get(topic);
      if (!ensured) {
        ensured = connect().then(() => admin.createTopics({
          waitForLeaders: true,
          topics: [{
            topic,
            numPartitions: partitions,
            replicationFactor: options.replicationFactor ?? -1,
            configEntries: Object.entries(options.topicConfig?.(topic) ?? {}).map(([name, value]) => ({ name, value })),
          }],
        }));
        ensured.catch(() => ensuredTopics.delete(topic));
        ensuredTopics.set(topic, ensured);
      }
      return ensured;
    }));
  }

  async function subscribe({ group, topics, handler, fromBeginning = true }: SubscribeOptions): Promise<Subscription> {
    await ensureTopics(topics);
    const consumer = kafka.consumer({ groupId: group });
    const reportedLag = new Set<string>();
    const forgetLag = () => {
      for (const labels of reportedLag) {
        const [topic, partition] = labels.split('\u0000');
        consumerLag.remove({ group, topic, partition });
      }
      reportedLag.clear();
    };
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      reportedLag.add(`${payload.topic}\u0000${payload.partition}`);
      consumerLag.set({ group, topic: payload.topic, partition: String(payload.partition) }, Number(payload.offsetLag));
    });
    // After a rebalance this member may no longer own the partitions it reported.
    consumer.on(consumer.events.GROUP_JOIN, forgetLag);
    const joined = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, () => resolve());
      consumer.on(consumer.events.CRASH, ({ payload }) => { if (!payload.restart) reject(payload.error); });
    });

    // A throw makes kafkajs retry the message, then restart the consumer from the committed offset.
    const eachMessage = async ({ topic, partition, message }: EachMessagePayload) => {
      if (!message.value) return;
      let envelope: EventEnvelope;
      try {
        envelope = JSON.parse(message.value.toString('utf8'));
      } catch {
        logger?.error({ topic, partition, offset: message.offset }, 'kafka message is not JSON; skipped');
        return;
      }
      const traceparent = message.headers?.traceparent?.toString();
      if (traceparent && !envelope.traceparent) envelope.traceparent = traceparent;
      await handler({ topic, key: message.key?.toString('utf8') ?? envelope.key, envelope });
    };

    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning });
      await consumer.run({ partitionsConsumedConcurrently: partitions, eachMessage });
      await joined;
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
    consumers.add(consumer);
    return {
      async close() {
        consumers.delete(consumer);
        await consumer.disconnect();
        forgetLag();
      },
    };
  }

  async function send(messages: BusMessage[]): Promise<void> {
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of messages) {
      if (!byTopic.has(message.topic)) byTopic.set(message.topic, []);
      byTopic.get(message.topic)!.push(message);
    }
    await ensureTopics([...byTopic.keys()]);
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map(({ key, envelope }) => ({
          key,
          value: JSON.stringify(envelope),
          headers: envelope.traceparent ? { traceparent: envelope.traceparent } : undefined,
        })),
      })),
    });
  }

  let lastPublish: Promise<void> = Promise.resolve();

  return {
    kind: 'kafka',

    publish(messages: BusMessage[]): Promise<void> {
      if (!messages.length) return Promise.resolve();
      // One batch at a time, in call order: concurrent calls could otherwise overtake each other, key order with them.
      const sent = lastPublish.catch(() => undefined).then(() => send(messages));
      lastPublish = sent;
      return sent;
    },

    subscribe,

    async ready() {
      try {
        await connect();
        await admin.describeCluster();
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      await Promise.allSettled([...consumers].map((consumer) => consumer.disconnect()));
      consumers.clear();
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    },
  };
}

import type { ConnectionOptions } from 'node:tls';
import kafkajs, { type Consumer, type EachMessagePayload, type LogEntry, type SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import { Counter, Gauge, register } from 'prom-client';
import type { EventEnvelope } from '@leadforge/contracts';
import { backoffWithJitter } from '../../work/backoff.ts';
import type { Bus, BusHandler, BusMessage, SubscribeOptions, Subscription } from './bus.ts';
// Before any client connects: an idle connection otherwise spins a timer (see the module).
import './kafkajsIdleTimer.ts';

const { Kafka, KafkaJSError, Partitioners, logLevel } = kafkajs;

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

const consumerLag = (register.getSingleMetric('leadforge_bus_consumer_lag') as Gauge<'group' | 'topic' | 'partition'> | undefined)
  ?? new Gauge({
    name: 'leadforge_bus_consumer_lag',
    help: 'Messages in a partition not yet handled by the consumer group, as of its last batch.',
    labelNames: ['group', 'topic', 'partition'],
  });
const consumerRestarts = (register.getSingleMetric('leadforge_bus_consumer_restarts_total') as Counter<'group'> | undefined)
  ?? new Counter({ name: 'leadforge_bus_consumer_restarts_total', help: 'Consumers started again after the Kafka client stopped them for good.', labelNames: ['group'] });

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

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The message as handed to a handler; a value that is not JSON comes as `undecodable` text. */
function decode(topic: string, key: string | undefined, value: Buffer, traceparent: string | undefined): BusMessage {
  const text = value.toString('utf8');
  let envelope: EventEnvelope;
  try {
    envelope = JSON.parse(text);
  } catch {
    return { topic, key: key ?? '', envelope: {} as EventEnvelope, undecodable: text };
  }
  if (envelope && typeof envelope === 'object' && traceparent && !envelope.traceparent) envelope.traceparent = traceparent;
  return { topic, key: key ?? envelope?.key, envelope };
}

/** The bus on Kafka: JSON envelope as the value, aggregate id as the key, traceparent as a header. */
export function createKafkaBus(options: KafkaBusOptions): Bus {
  const { logger } = options;
  const partitions = options.partitions ?? 6;
  const prefix = options.topicPrefix ?? '';
  const publishTimeoutMs = options.publishTimeoutMs ?? 15_000;
  const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
  const heartbeatInterval = options.heartbeatIntervalMs ?? 3_000;
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 60_000;
  const restartMs = options.restartMs ?? 5_000;
  const fetchMaxWaitMs = options.fetchMaxWaitMs ?? 1_000;
  const lateCommitMs = options.lateCommitMs ?? 5_000;
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
  // Idempotent (hence acks=all) and one request in flight: no duplicates and no reordering on retry.
  // Its retries are bounded too: a publish given up on is published again by the outbox, and
  // consumers skip what they already handled.
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
  });
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
  const members = new Set<Member>();
  /** Settles when the last send handed to the producer has ended, however its publish fared. */
  let lastSend: Promise<unknown> = Promise.resolve();

  function ensureTopics(topics: string[]): Promise<unknown> {
    return Promise.all(topics.map((topic) => {
      let ensured = ensuredTopics.get(topic);
      if (!ensured) {
        ensured = connect().then(() => admin.createTopics({
          waitForLeaders: true,
          topics: [{
            topic: prefix + topic,
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

  /**
   * One consumer group member. When kafkajs stops it for good (a CRASH it will not restart from),
   * it is started again after restartMs, so the subscription never silently ends.
   */
  class Member {
    private consumer?: Consumer;
    private stopped = false;
    private readonly reportedLag = new Set<string>();
    private readonly sleepers = new Set<() => void>();
    private restarting?: Promise<void>;
    private readonly log: Logger | undefined;
    /** The partitions of this member's last join, as `topic\u0000partition` (topics with their prefix). */
    private assigned = new Set<string>();
    /** Per assigned partition: the offset after the last message handled, not yet known committed, and when. */
    private readonly uncommitted = new Map<string, { topic: string; partition: number; offset: bigint; handledAt: number }>();
    private lateCommits?: NodeJS.Timeout;
    private committingLate = false;

    constructor(private readonly group: string, private readonly topics: string[], private readonly handler: BusHandler, private readonly fromBeginning: boolean) {
      this.log = logger?.child({ group });
    }

    /** Resolves once the member has joined its group; rejects when it cannot. */
    async start(): Promise<void> {
      const consumer = kafka.consumer({ groupId: prefix + this.group, sessionTimeout, heartbeatInterval, maxWaitTimeInMs: fetchMaxWaitMs });
      this.consumer = consumer;
      consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        const topic = payload.topic.slice(prefix.length);
        this.reportedLag.add(`${topic}\u0000${payload.partition}`);
        consumerLag.set({ group: this.group, topic, partition: String(payload.partition) }, Number(payload.offsetLag));
      });
      // After a rebalance this member may no longer own the partitions it reported.
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        this.forgetLag();
        // A join fetches again from the committed offsets: what was handled before it comes again.
        this.uncommitted.clear();
        this.assigned = new Set(Object.entries(payload.memberAssignment).flatMap(([topic, partitions]) => partitions.map((partition) => `${topic}\u0000${partition}`)));
      });
      consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => {
        for (const { topic, partitions } of payload.topics) {
          for (const { partition, offset } of partitions) {
            const key = `${topic}\u0000${partition}`;
            if ((this.uncommitted.get(key)?.offset ?? Infinity) <= BigInt(String(offset))) this.uncommitted.delete(key);
          }
        }
      });
      this.lateCommits ??= setInterval(() => void this.commitLate(), lateCommitMs).unref();
      let joinedYet = false;
      const joined = new Promise<void>((resolve, reject) => {
        consumer.on(consumer.events.GROUP_JOIN, () => { joinedYet = true; resolve(); });
        consumer.on(consumer.events.CRASH, ({ payload }) => {
          if (payload.restart) return;
          if (!joinedYet) reject(payload.error);
          else this.restartAfterCrash(consumer, payload.error);
        });
      });
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: this.topics.map((topic) => prefix + topic), fromBeginning: this.fromBeginning });
        await consumer.run({ partitionsConsumedConcurrently: options.consumerConcurrency ?? 2, eachMessage: (payload) => this.eachMessage(payload) });
        await joined;
      } catch (error) {
        await consumer.disconnect().catch(() => undefined);
        throw error;
      }
    }

    private restartAfterCrash(crashed: Consumer, error: Error): void {
      if (this.stopped || this.restarting || crashed !== this.consumer) return;
      consumerRestarts.inc({ group: this.group });
      this.log?.error({ err: error, restartInMs: restartMs }, 'kafka consumer stopped for good; starting it again');
      this.restarting = (async () => {
        await crashed.disconnect().catch(() => undefined);
        for (let attempt = 1; !this.stopped; attempt++) {
          await this.sleep(backoffWithJitter(attempt, { baseMs: restartMs, maxMs: maxRetryMs }));
          if (this.stopped) return;
          try {
            await this.start();
            return;
          } catch (startError) {
            this.log?.error({ err: startError, attempt }, 'kafka consumer could not start again; will retry');
          }
        }
      })().finally(() => { this.restarting = undefined; });
    }

    /**
     * Hands the message to the handler until it succeeds, waiting longer after each failure, and
     * heartbeating meanwhile so a slow or failing handler does not get the member dropped. Errors of
     * kafkajs itself (from a heartbeat: a rebalance, a member the group forgot) go to kafkajs, whose
     * recovery seeks back to the last committed offset.
     */
    private async eachMessage({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
      if (!message.value) {
        this.handled(topic, partition, message.offset);
        return;
      }
      const busMessage = decode(topic.slice(prefix.length), message.key?.toString('utf8'), message.value, message.headers?.traceparent?.toString());
      for (let failures = 0; ; failures++) {
        if (this.stopped) throw new Error('subscription closed');
        try {
          await this.whileBeating(heartbeat, () => this.handler(busMessage));
          this.handled(topic, partition, message.offset);
          return;
        } catch (error) {
          if (error instanceof KafkaJSError || this.stopped) throw error;
          const delay = backoffWithJitter(failures + 1, { baseMs: retryMs, maxMs: maxRetryMs });
          this.log?.warn({ err: error, topic: busMessage.topic, partition, offset: message.offset, failures: failures + 1, retryInMs: delay }, 'event handler failed; will deliver it again');
          await this.whileBeating(heartbeat, () => this.sleep(delay));
        }
      }
    }

    private handled(topic: string, partition: number, offset: string): void {
      const key = `${topic}\u0000${partition}`;
      // A handler that finished after a rebalance took its partition away: the new owner commits.
      if (!this.assigned.has(key)) return;
      this.uncommitted.set(key, { topic, partition, offset: BigInt(offset) + 1n, handledAt: Date.now() });
    }

    /**
     * Commits the offsets handled at least lateCommitMs ago that kafkajs has not committed. A commit from
     * a member that is no longer in the group's generation is refused by the coordinator.
     */
    private async commitLate(): Promise<void> {
      const consumer = this.consumer;
      if (!consumer || this.stopped || this.committingLate) return;
      const due = [...this.uncommitted.values()].filter((entry) => Date.now() - entry.handledAt >= lateCommitMs);
      if (!due.length) return;
      this.committingLate = true;
      try {
        await consumer.commitOffsets(due.map(({ topic, partition, offset }) => ({ topic, partition, offset: String(offset) })));
        // kafkajs skips a commit while its consumer is not running: only those it reported committed count.
        const committed = due.filter((entry) => this.uncommitted.get(`${entry.topic}\u0000${entry.partition}`) !== entry);
        if (committed.length) this.log?.info({ offsets: committed.map(({ topic, partition, offset }) => ({ topic: topic.slice(prefix.length), partition, offset: String(offset) })) }, 'committed handled offsets kafkajs had not committed');
      } catch (error) {
        this.log?.warn({ err: error }, 'could not commit handled offsets yet; will try again');
      } finally {
        this.committingLate = false;
      }
    }

    private async whileBeating<T>(heartbeat: () => Promise<void>, work: () => Promise<T>): Promise<T> {
      let beatError: unknown;
      const timer = setInterval(() => {
        heartbeat().catch((error) => {
          beatError ??= error;
          // A rebalance is under way: stop waiting to retry, so kafkajs can rejoin promptly.
          for (const wake of [...this.sleepers]) wake();
        });
      }, heartbeatInterval);
      try {
        const result = await work();
        if (beatError) throw beatError;
        return result;
      } finally {
        clearInterval(timer);
      }
    }

    private sleep(ms: number): Promise<void> {
      return new Promise((resolve) => {
        const wake = () => { clearTimeout(timer); this.sleepers.delete(wake); resolve(); };
        const timer = setTimeout(wake, ms);
        this.sleepers.add(wake);
      });
    }

    private forgetLag(): void {
      for (const labels of this.reportedLag) {
        const [topic, partition] = labels.split('\u0000');
        consumerLag.remove({ group: this.group, topic, partition });
      }
      this.reportedLag.clear();
    }

    async stop(): Promise<void> {
      this.stopped = true;
      clearInterval(this.lateCommits);
      for (const wake of [...this.sleepers]) wake();
      await this.restarting;
      await this.consumer?.disconnect().catch((error) => this.log?.warn({ err: error }, 'kafka consumer did not disconnect cleanly'));
      this.forgetLag();
    }
  }

  async function subscribe({ group, topics, handler, fromBeginning = true }: SubscribeOptions): Promise<Subscription> {
    await ensureTopics(topics);
    const member = new Member(group, topics, handler, fromBeginning);
    await member.start();
    members.add(member);
    return {
      async close() {
        members.delete(member);
        await member.stop();
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
        topic: prefix + topic,
        messages: list.map(({ key, envelope }) => ({
          key,
          value: JSON.stringify(envelope),
          headers: envelope.traceparent ? { traceparent: envelope.traceparent } : undefined,
        })),
      })),
    });
  }

  return {
    kind: 'kafka',

    publish(messages: BusMessage[]): Promise<void> {
      if (!messages.length) return Promise.resolve();
      // One send in flight at a time, in call order. kafkajs cannot abandon a send, so a publish that
      // timed out still holds the next one back until its send has ended: two sends at once on the
      // idempotent producer could reorder a key or reuse a sequence number. A publish whose time ran
      // out before its turn is not sent at all; its caller was told it failed and will publish again.
      let abandoned = false;
      const sent = lastSend.then(() => {
        if (abandoned) throw new Error('kafka publish abandoned: it timed out waiting for the previous send');
        return send(messages);
      });
      lastSend = sent.catch(() => undefined);
      return withTimeout(sent, publishTimeoutMs, 'kafka publish').catch((error) => {
        abandoned = true;
        throw error;
      });
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
      await Promise.allSettled([...members].map((member) => member.stop()));
      members.clear();
      // With the brokers away a disconnect may wait on requests that will never be answered.
      await withTimeout(Promise.allSettled([producer.disconnect(), admin.disconnect()]), 5_000, 'kafka disconnect').catch(() => undefined);
    },
  };
}

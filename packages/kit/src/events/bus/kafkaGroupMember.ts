import kafkajs, { type Consumer, type EachMessagePayload, type Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Counter, Gauge, register } from 'prom-client';
import type { EventEnvelope } from '@leadforge/contracts';
import { backoffWithJitter } from '../../work/backoff.ts';
import type { BusHandler, BusMessage } from './bus.ts';

const { KafkaJSError } = kafkajs;

/** What the members of one bus share: its client, the prefix of its names on the wire, and its pacing (KafkaBusOptions). */
export interface GroupMemberSettings {
  kafka: Kafka;
  prefix: string;
  logger?: Logger;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  fetchMaxWaitMs: number;
  consumerConcurrency: number;
  retryMs: number;
  maxRetryMs: number;
  restartMs: number;
  lateCommitMs: number;
}

const consumerLag = (register.getSingleMetric('leadforge_bus_consumer_lag') as Gauge<'group' | 'topic' | 'partition'> | undefined)
  ?? new Gauge({
    name: 'leadforge_bus_consumer_lag',
    help: 'Messages in a partition not yet handled by the consumer group, as of its last batch.',
    labelNames: ['group', 'topic', 'partition'],
  });
const consumerRestarts = (register.getSingleMetric('leadforge_bus_consumer_restarts_total') as Counter<'group'> | undefined)
  ?? new Counter({ name: 'leadforge_bus_consumer_restarts_total', help: 'Consumers started again after the Kafka client stopped them for good.', labelNames: ['group'] });

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

/**
 * One consumer group member. When kafkajs stops it for good (a CRASH it will not restart from),
 * it is started again after restartMs, so the subscription never silently ends.
 */
export class GroupMember {
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

  constructor(
    private readonly settings: GroupMemberSettings,
    private readonly group: string,
    private readonly topics: string[],
    private readonly handler: BusHandler,
    private readonly fromBeginning: boolean,
  ) {
    this.log = settings.logger?.child({ group });
  }

  /** Resolves once the member has joined its group; rejects when it cannot. */
  async start(): Promise<void> {
    const consumer = this.settings.kafka.consumer({
      groupId: this.settings.prefix + this.group,
      sessionTimeout: this.settings.sessionTimeoutMs,
      heartbeatInterval: this.settings.heartbeatIntervalMs,
      maxWaitTimeInMs: this.settings.fetchMaxWaitMs,
    });
    this.consumer = consumer;
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const topic = payload.topic.slice(this.settings.prefix.length);
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
    this.lateCommits ??= setInterval(() => void this.commitLate(), this.settings.lateCommitMs).unref();
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
      await consumer.subscribe({ topics: this.topics.map((topic) => this.settings.prefix + topic), fromBeginning: this.fromBeginning });
      await consumer.run({ partitionsConsumedConcurrently: this.settings.consumerConcurrency, eachMessage: (payload) => this.eachMessage(payload) });
      await joined;
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  private restartAfterCrash(crashed: Consumer, error: Error): void {
    if (this.stopped || this.restarting || crashed !== this.consumer) return;
    consumerRestarts.inc({ group: this.group });
    this.log?.error({ err: error, restartInMs: this.settings.restartMs }, 'kafka consumer stopped for good; starting it again');
    this.restarting = (async () => {
      await crashed.disconnect().catch(() => undefined);
      for (let attempt = 1; !this.stopped; attempt++) {
        await this.sleep(backoffWithJitter(attempt, { baseMs: this.settings.restartMs, maxMs: this.settings.maxRetryMs }));
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
    const busMessage = decode(topic.slice(this.settings.prefix.length), message.key?.toString('utf8'), message.value, message.headers?.traceparent?.toString());
    for (let failures = 0; ; failures++) {
      if (this.stopped) throw new Error('subscription closed');
      try {
        await this.whileBeating(heartbeat, () => this.handler(busMessage));
        this.handled(topic, partition, message.offset);
        return;
      } catch (error) {
        if (error instanceof KafkaJSError || this.stopped) throw error;
        const delay = backoffWithJitter(failures + 1, { baseMs: this.settings.retryMs, maxMs: this.settings.maxRetryMs });
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
    const due = [...this.uncommitted.values()].filter((entry) => Date.now() - entry.handledAt >= this.settings.lateCommitMs);
    if (!due.length) return;
    this.committingLate = true;
    try {
      await consumer.commitOffsets(due.map(({ topic, partition, offset }) => ({ topic, partition, offset: String(offset) })));
      // kafkajs skips a commit while its consumer is not running: only those it reported committed count.
      const committed = due.filter((entry) => this.uncommitted.get(`${entry.topic}\u0000${entry.partition}`) !== entry);
      if (committed.length) this.log?.info({ offsets: committed.map(({ topic, partition, offset }) => ({ topic: topic.slice(this.settings.prefix.length), partition, offset: String(offset) })) }, 'committed handled offsets kafkajs had not committed');
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
    }, this.settings.heartbeatIntervalMs);
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

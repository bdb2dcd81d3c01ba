import { AsyncLocalStorage } from 'node:async_hooks';
import { backoffWithJitter } from '../../work/backoff.ts';
import type { Bus, BusHandler, BusMessage, SubscribeOptions, Subscription } from './bus.ts';

export interface MemoryBusOptions {
  /** Messages kept per topic for groups that subscribe later, like Kafka's retention. */
  retain?: number;
  /** Ceiling of the wait before a message whose handler threw is delivered again; doubles up to `maxRetryMs`, jittered. */
  retryMs?: number;
  maxRetryMs?: number;
}

interface Delivery {
  message: BusMessage;
  handled: Promise<void>;
  resolve(): void;
}

/** The messages of one key within one group and topic, handled one after another. */
interface Lane {
  key: string;
  queue: Delivery[];
  running: boolean;
  failures: number;
}

interface Member {
  topics: Set<string>;
  handler: BusHandler;
  inFlight: Set<Promise<boolean>>;
}

/** A group's position in one topic: `next` is the offset of the first message not yet queued. */
interface GroupTopic {
  topic: string;
  next: number;
  lanes: Map<string, Lane>;
}

interface Group {
  members: Member[];
  topics: Map<string, GroupTopic>;
}

/** Offsets are absolute: `start` is the offset of `messages[0]`. */
interface TopicLog {
  start: number;
  messages: BusMessage[];
}

function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function newDelivery(message: BusMessage): Delivery {
  let resolve!: () => void;
  const handled = new Promise<void>((r) => { resolve = r; });
  return { message, handled, resolve };
}

/**
 * The in-process bus with Kafka's contract (retained log per topic, consumer groups, per-key order,
 * at-least-once). With no broker to survive a crash, `publish` resolves only once every group
 * subscribed to the topic has handled the message, so an outbox row is marked published only after
 * its effect is committed in the consumers' databases.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const retain = options.retain ?? 10_000;
  const retryMs = options.retryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const logs = new Map<string, TopicLog>();
  const groups = new Map<string, Group>();
  const insideHandler = new AsyncLocalStorage<true>();
  let closed = false;

  const logOf = (topic: string): TopicLog => {
    let log = logs.get(topic);
    if (!log) logs.set(topic, (log = { start: 0, messages: [] }));
    return log;
  };

  const membersFor = (group: Group, topic: string) => group.members.filter((m) => m.topics.has(topic));

  async function deliver(member: Member, message: BusMessage): Promise<boolean> {
    // A copy, as Kafka hands each consumer its own decoded value.
    const copy: BusMessage = { ...message, envelope: JSON.parse(JSON.stringify(message.envelope)) };
    const attempt = insideHandler.run(true, async () => member.handler(copy)).then(() => true, () => false);
    member.inFlight.add(attempt);
    try {
      return await attempt;
    } finally {
      member.inFlight.delete(attempt);
    }
  }

  async function runLane(group: Group, groupTopic: GroupTopic, lane: Lane): Promise<void> {
    lane.running = true;
    while (!closed && lane.queue.length) {
      const members = membersFor(group, groupTopic.topic);
      if (!members.length) break;
      const member = members[keyHash(lane.key) % members.length];
      const delivery = lane.queue[0];
      if (await deliver(member, delivery.message)) {
        lane.queue.shift();
        lane.failures = 0;
        delivery.resolve();
      } else {
        const delay = backoffWithJitter(++lane.failures, { baseMs: retryMs, maxMs: maxRetryMs });
        await new Promise((r) => setTimeout(r, delay).unref());
      }
    }
    lane.running = false;
    if (!lane.queue.length) groupTopic.lanes.delete(lane.key);
  }

  const kick = (group: Group, groupTopic: GroupTopic, lane: Lane) => {
    if (!lane.running && lane.queue.length) void runLane(group, groupTopic, lane);
  };

  /** Queues the messages the group has not seen yet; returns their deliveries. */
  function catchUp(group: Group, groupTopic: GroupTopic): Delivery[] {
    const log = logOf(groupTopic.topic);
    const deliveries: Delivery[] = [];
    const end = log.start + log.messages.length;
    for (let offset = Math.max(groupTopic.next, log.start); offset < end; offset++) {
      const message = log.messages[offset - log.start];
      let lane = groupTopic.lanes.get(message.key);
      if (!lane) groupTopic.lanes.set(message.key, (lane = { key: message.key, queue: [], running: false, failures: 0 }));
      const delivery = newDelivery(message);
      lane.queue.push(delivery);
      deliveries.push(delivery);
    }
    groupTopic.next = end;
    for (const lane of groupTopic.lanes.values()) kick(group, groupTopic, lane);
    return deliveries;
  }

  /** Nobody of the group reads the topic any more: publishers stop waiting; the queue stays for a later member. */
  function releaseWaiters(group: Group, groupTopic: GroupTopic) {
    for (const lane of groupTopic.lanes.values()) for (const delivery of lane.queue) delivery.resolve();
  }

  async function leave(group: Group, member: Member): Promise<void> {
    const index = group.members.indexOf(member);
    if (index < 0) return;
    group.members.splice(index, 1);
    for (const topic of member.topics) {
      const groupTopic = group.topics.get(topic)!;
      if (membersFor(group, topic).length) for (const lane of groupTopic.lanes.values()) kick(group, groupTopic, lane);
      else releaseWaiters(group, groupTopic);
    }
    await Promise.all(member.inFlight);
  }

  return {
    kind: 'memory',

    async publish(messages: BusMessage[]): Promise<void> {
      if (closed) throw new Error('memory bus is closed');
      const topics = new Set<string>();
      for (const message of messages) {
        const log = logOf(message.topic);
        log.messages.push({ topic: message.topic, key: message.key, envelope: message.envelope, ...(message.undecodable !== undefined ? { undecodable: message.undecodable } : {}) });
        if (log.messages.length > retain) log.start += log.messages.splice(0, log.messages.length - retain).length;
        topics.add(message.topic);
      }
      const deliveries: Delivery[] = [];
      for (const group of groups.values()) {
        for (const topic of topics) {
          const groupTopic = group.topics.get(topic);
          if (groupTopic && membersFor(group, topic).length) deliveries.push(...catchUp(group, groupTopic));
        }
      }
      // Published from inside a handler: waiting could wait on that very handler's lane, forever.
      if (insideHandler.getStore()) return;
      await Promise.all(deliveries.map((d) => d.handled));
    },

    async subscribe({ group: name, topics, handler, fromBeginning = true }: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('memory bus is closed');
      let group = groups.get(name);
      if (!group) groups.set(name, (group = { members: [], topics: new Map() }));
      const member: Member = { topics: new Set(topics), handler, inFlight: new Set() };
      group.members.push(member);
      for (const topic of member.topics) {
        let groupTopic = group.topics.get(topic);
        if (!groupTopic) {
          const log = logOf(topic);
          const next = fromBeginning ? log.start : log.start + log.messages.length;
          group.topics.set(topic, (groupTopic = { topic, next, lanes: new Map() }));
        }
        catchUp(group, groupTopic);
      }
      const joined = group;
      return { close: () => leave(joined, member) };
    },

    async ready() {
      return !closed;
    },

    async close() {
      closed = true;
      await Promise.all([...groups.values()].flatMap((group) => [...group.members].map((member) => leave(group, member))));
    },
  };
}

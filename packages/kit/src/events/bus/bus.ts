import type { EventEnvelope } from '@leadforge/contracts';

export interface BusMessage {
  topic: string;
  key: string;
  envelope: EventEnvelope;
  /**
   * Set by a bus that received a value which is not JSON: the value as text (`envelope` is then
   * empty), so the consumer can park it rather than lose it.
   */
  undecodable?: string;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group: each message of a topic goes to exactly one member of every group. */
  group: string;
  topics: string[];
  handler: BusHandler;
  /** A new group starts from the oldest retained message (default true). */
  fromBeginning?: boolean;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * The event bus contract shared by the in-process and Kafka adapters.
 * `publish` resolves once the bus has accepted the messages durably, and rejects rather than wait
 * without end when it cannot (broker down); concurrent calls keep their call order. A handler that
 * throws gets the message again, after a growing delay, before later messages of its key
 * (at-least-once); order holds per key within a topic.
 */
export interface Bus {
  readonly kind: 'memory' | 'kafka';
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Whether the bus answers now; reported on /readyz but not gating it (the outbox rides out an outage). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

import type { EventEnvelope } from '@leadforge/contracts';

export interface BusMessage {
  topic: string;
  key: string;
  envelope: EventEnvelope;
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
 * `publish` resolves once the bus has accepted the messages durably; a handler that throws gets the
 * message again (at-least-once); order holds per key within a topic.
 */
export interface Bus {
  readonly kind: 'memory' | 'kafka';
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Health for /readyz. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

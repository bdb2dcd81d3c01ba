import kafkajs, { type Kafka, type Producer } from 'kafkajs';
import type { BusMessage } from './bus.ts';
import type { KafkaTopics } from './kafkaTopics.ts';

const { Partitioners } = kafkajs;

export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The bus's producer. Idempotent (hence acks=all) and one request in flight: no duplicates and no
 * reordering on retry. Its retries are bounded too: a publish given up on is published again by the
 * outbox, and consumers skip what they already handled.
 */
export function kafkaProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
  });
}

export interface PublisherSettings {
  /** Connected as the topics of a send are ensured: ensuring connects the bus's clients. */
  producer: Producer;
  topics: KafkaTopics;
  prefix: string;
  publishTimeoutMs: number;
}

/**
 * Bus.publish on the producer: the JSON envelope as the value, the aggregate id as the key, the
 * traceparent as a header; one send in flight at a time, in call order.
 */
export function orderedPublisher({ producer, topics, prefix, publishTimeoutMs }: PublisherSettings): (messages: BusMessage[]) => Promise<void> {
  /** Settles when the last send handed to the producer has ended, however its publish fared. */
  let lastSend: Promise<unknown> = Promise.resolve();

  async function send(messages: BusMessage[]): Promise<void> {
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of messages) {
      if (!byTopic.has(message.topic)) byTopic.set(message.topic, []);
      byTopic.get(message.topic)!.push(message);
    }
    await topics.ensure([...byTopic.keys()]);
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

  return (messages) => {
    if (!messages.length) return Promise.resolve();
    // kafkajs cannot abandon a send, so a publish that timed out still holds the next one back until
    // its send has ended: two sends at once on the idempotent producer could reorder a key or reuse a
    // sequence number. A publish whose time ran out before its turn is not sent at all; its caller was
    // told it failed and will publish again.
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
  };
}

import type { Logger } from 'pino';
import { KEPT_TOPICS } from '@leadforge/contracts';
import type { Bus, Subscription } from './bus.ts';
import { createKafkaBus } from './kafkaBus.ts';
import { readKafkaConfig, type KafkaConfig } from '../../config/kafkaConfig.ts';
import { createMemoryBus } from './memoryBus.ts';

let processBus: Bus | undefined;

/** The in-process bus that the services this process starts on their own (no stack, no Kafka) share. */
export function sharedMemoryBus(): Bus {
  processBus ??= createMemoryBus();
  return processBus;
}

/** A service's handle on a shared bus: closing it ends only the subscriptions made through it. */
function handleOn(shared: Bus): Bus {
  const subscriptions = new Set<Subscription>();
  return {
    kind: shared.kind,
    publish: (messages) => shared.publish(messages),
    async subscribe(options) {
      const subscription = await shared.subscribe(options);
      const handle: Subscription = {
        async close() {
          subscriptions.delete(handle);
          await subscription.close();
        },
      };
      subscriptions.add(handle);
      return handle;
    },
    ready: () => shared.ready(),
    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
    },
  };
}

/**
 * The bus of one local stack (stack/src/embedded/startStack.ts): Kafka when `KAFKA_BROKERS` is set,
 * otherwise an in-process bus of the stack's own. A second stack in the same process (the tests run
 * several, one after another, in one worker) then never sees this one's events, nor replays its
 * retained topics into its own new consumer groups.
 */
export function createStackBus(env: NodeJS.ProcessEnv, logger: Logger): Bus {
  const kafka = readKafkaConfig(env);
  return kafka ? createBus(kafka, logger) : createMemoryBus();
}

/** Settings for a topic the Kafka bus creates itself (external Kafka; the chart declares its own). */
export function kafkaTopicConfig(topic: string): Record<string, string> {
  return (KEPT_TOPICS as readonly string[]).includes(topic) ? { 'retention.ms': '-1' } : {};
}

/**
 * Kafka with these settings (the kit's configuration when `KAFKA_BROKERS` is set: its client id
 * names the service), otherwise a handle on the process's shared in-process bus.
 */
export function createBus(kafka: KafkaConfig | undefined, logger: Logger): Bus {
  if (!kafka) return handleOn(sharedMemoryBus());
  return createKafkaBus({
    brokers: kafka.brokers,
    clientId: kafka.clientId,
    logger,
    partitions: kafka.partitions,
    topicPrefix: kafka.topicPrefix,
    sasl: kafka.sasl,
    ssl: kafka.ssl,
    sessionTimeoutMs: kafka.sessionTimeoutMs,
    heartbeatIntervalMs: kafka.heartbeatIntervalMs,
    consumerConcurrency: kafka.consumerConcurrency,
    publishTimeoutMs: kafka.publishTimeoutMs,
    topicConfig: kafkaTopicConfig,
  });
}

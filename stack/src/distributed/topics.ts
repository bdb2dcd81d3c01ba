import kafkajs from 'kafkajs';
import { TOPICS } from '@leadforge/contracts';
import { kafkaTopicConfig } from '@leadforge/kit/events';

/**
 * Creates every topic before the services start, as the chart's KafkaTopic resources do in a cluster:
 * services starting together would otherwise race to create the same topics.
 */
export async function createTopics(bootstrap: string, partitions: number, prefix = ''): Promise<void> {
  const admin = new kafkajs.Kafka({ clientId: 'leadforge-launcher', brokers: [bootstrap], logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const topics = Object.values(TOPICS).filter((topic) => !existing.has(prefix + topic)).map((topic) => ({
      topic: prefix + topic,
      numPartitions: partitions,
      replicationFactor: 1,
      configEntries: Object.entries(kafkaTopicConfig(topic)).map(([name, value]) => ({ name, value })),
    }));
    if (topics.length) await admin.createTopics({ topics, waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

import type { Admin } from 'kafkajs';

export interface KafkaTopicsSettings {
  admin: Admin;
  /** Connects the bus's clients (the admin among them); rejects while the brokers cannot be reached. */
  connect(): Promise<unknown>;
  prefix: string;
  partitions: number;
  replicationFactor: number;
  topicConfig?: (topic: string) => Record<string, string>;
}

export interface KafkaTopics {
  /** Resolves once each topic exists with its leaders elected; a topic is created once per bus, again after a failed try. */
  ensure(topics: string[]): Promise<unknown>;
  /** Whether the brokers answer a metadata request now. */
  reachable(): Promise<boolean>;
}

/** The topics of one bus on the brokers: created as the bus first uses them, and the cluster's metadata. */
export function kafkaTopics({ admin, connect, prefix, partitions, replicationFactor, topicConfig }: KafkaTopicsSettings): KafkaTopics {
  const ensuredTopics = new Map<string, Promise<unknown>>();

  return {
    ensure(topics) {
      return Promise.all(topics.map((topic) => {
        let ensured = ensuredTopics.get(topic);
        if (!ensured) {
          ensured = connect().then(() => admin.createTopics({
            waitForLeaders: true,
            topics: [{
              topic: prefix + topic,
              numPartitions: partitions,
              replicationFactor,
              configEntries: Object.entries(topicConfig?.(topic) ?? {}).map(([name, value]) => ({ name, value })),
            }],
          }));
          ensured.catch(() => ensuredTopics.delete(topic));
          ensuredTopics.set(topic, ensured);
        }
        return ensured;
      }));
    },

    async reachable() {
      try {
        await connect();
        await admin.describeCluster();
        return true;
      } catch {
        return false;
      }
    },
  };
}

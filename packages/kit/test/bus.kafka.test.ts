import crypto from 'node:crypto';
import kafkajs from 'kafkajs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_TOPICS, TOPICS } from '@leadforge/contracts';
import { kafkaTopicConfig } from '../src/events/bus/createBus.ts';
import { createKafkaBus } from '../src/events/bus/kafkaBus.ts';
import { waitFor, givenBrokers, KAFKA_START_TIMEOUT_MS, kafkaSkipReason, startOwnKafka, type OwnKafka } from '@leadforge/testing';
import { busContract } from './bus.contract.ts';

describe('the settings of topics the Kafka bus creates', () => {
  it('keeps the whole history of the topics the admin read models replay, and the broker default elsewhere', () => {
    for (const topic of KEPT_TOPICS) expect(kafkaTopicConfig(topic)).toEqual({ 'retention.ms': '-1' });
    expect(kafkaTopicConfig(TOPICS.scraperResult)).toEqual({});
    expect(kafkaTopicConfig(TOPICS.adminAction)).toEqual({});
  });
});

const skipReason = kafkaSkipReason();
const logger = pino({ level: 'silent' });

describe.skipIf(skipReason)(`kafka bus on Apache Kafka${skipReason ? ` (${skipReason})` : givenBrokers.length ? ' (given brokers)' : ' (a broker of its own)'}`, () => {
  let own: OwnKafka | undefined;
  let brokers = givenBrokers;

  beforeAll(async () => {
    if (brokers.length) return;
    own = await startOwnKafka();
    brokers = own.brokers;
  }, KAFKA_START_TIMEOUT_MS);
  afterAll(() => own?.close());

  // Group joins and rebalances take seconds on a real broker.
  // Frequent heartbeats: members learn of a rebalance sooner, which is most of these tests' time.
  busContract('kafka', () => createKafkaBus({ brokers, clientId: 'leadforge-contract-test', logger, partitions: 4, heartbeatIntervalMs: 500 }), { deliveryMs: 25_000 });

  it('creates a topic with the settings topicConfig gives it', async () => {
    const topic = `lf-kept-${crypto.randomBytes(4).toString('hex')}`;
    const bus = createKafkaBus({ brokers, clientId: 'leadforge-contract-test', partitions: 2, topicConfig: (name): Record<string, string> => (name === topic ? { 'retention.ms': '-1' } : {}) });
    const subscription = await bus.subscribe({ group: `${topic}-group`, topics: [topic], handler: async () => {} });
    const admin = new kafkajs.Kafka({ brokers, clientId: 'leadforge-contract-test' }).admin();
    await admin.connect();
    try {
      const described = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: kafkajs.ConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms'] }] });
      expect(described.resources[0].configEntries.find((entry) => entry.configName === 'retention.ms')?.configValue).toBe('-1');
    } finally {
      await subscription.close();
      await bus.close();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  }, 60_000);

  it('puts KAFKA_TOPIC_PREFIX before topic and group names on the broker, and only there', async () => {
    const topic = `lf-plain-${crypto.randomBytes(4).toString('hex')}`;
    const bus = createKafkaBus({ brokers, clientId: 'leadforge-contract-test', partitions: 1, topicPrefix: 'staging.' });
    const received: string[] = [];
    const admin = new kafkajs.Kafka({ brokers, clientId: 'leadforge-contract-test', logLevel: kafkajs.logLevel.NOTHING }).admin();
    try {
      await bus.subscribe({ group: `${topic}-group`, topics: [topic], handler: async (m) => { received.push(m.topic); } });
      await bus.publish([{ topic, key: 'k', envelope: { id: crypto.randomUUID(), type: 'contract.tested', version: 1, occurred_at: new Date().toISOString(), key: 'k', data: {} } }]);
      await waitFor(() => received.length === 1, { timeoutMs: 25_000, what: 'the message' });
      expect(received).toEqual([topic]);
      await admin.connect();
      const topics = await admin.listTopics();
      expect(topics).toContain(`staging.${topic}`);
      expect(topics).not.toContain(topic);
      expect((await admin.listGroups()).groups.map((g) => g.groupId)).toContain(`staging.${topic}-group`);
    } finally {
      await bus.close();
      await admin.deleteTopics({ topics: [`staging.${topic}`] }).catch(() => undefined);
      await admin.disconnect();
    }
  }, 60_000);
});

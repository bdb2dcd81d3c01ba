import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { ensureKafka, missingKafkaPrerequisite, startKafka, type KafkaBroker } from '../src/infrastructure/kafkaBroker.ts';

const missing = missingKafkaPrerequisite();

/** The group's committed offset; right after a start the group coordinator may still be loading or moving in. */
async function committedOffset(admin: kafkajs.Admin): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const [offsets] = await admin.fetchOffsets({ groupId: 'broker-test', topics: ['broker-test'] });
      return offsets.partitions[0].offset;
    } catch (error) {
      if (attempt >= 100 || !(error instanceof kafkajs.KafkaJSProtocolError) || !error.retriable) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe.skipIf(missing)(`an Apache Kafka node started from the cached jars${missing ? ` (skipped: no ${missing.what}; ${missing.install})` : ''}`, () => {
  let dataDir: string;
  let broker: KafkaBroker | undefined;
  const kafka = () => new kafkajs.Kafka({ clientId: 'kafka-broker-test', brokers: [broker!.bootstrap], logLevel: kafkajs.logLevel.NOTHING });

  beforeAll(async () => {
    await ensureKafka();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-kafka-test-'));
  }, 10 * 60_000);
  afterAll(async () => {
    await broker?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers on loopback, run as the java process itself', async () => {
    const started = Date.now();
    broker = await startKafka({ dataDir });
    console.log(`kafka broker ready in ${Date.now() - started} ms (first start, storage formatted)`);
    expect(broker.bootstrap).toBe(`127.0.0.1:${broker.port}`);
    const command = fs.readFileSync(`/proc/${broker.pid}/cmdline`, 'utf8').split('\0');
    expect(path.basename(command[0])).toBe('java');
    expect(command).toContain('kafka.Kafka');
    expect(fs.readFileSync(path.join(dataDir, 'server.properties'), 'utf8')).toMatch(/^listeners=PLAINTEXT:\/\/127\.0\.0\.1:\d+,CONTROLLER:\/\/127\.0\.0\.1:\d+$/m);
  }, 120_000);

  it('takes a message and gives it to a consumer group', async () => {
    const admin = kafka().admin();
    const producer = kafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    const consumer = kafka().consumer({ groupId: 'broker-test' });
    try {
      await admin.connect();
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic: 'broker-test', numPartitions: 1 }] });
      await producer.connect();
      await producer.send({ topic: 'broker-test', acks: -1, messages: [{ key: 'k', value: 'hello' }] });
      await consumer.connect();
      await consumer.subscribe({ topics: ['broker-test'], fromBeginning: true });
      const value = await new Promise<string>((resolve) => {
        void consumer.run({ eachMessage: async ({ message }) => resolve(message.value!.toString()) });
      });
      expect(value).toBe('hello');
      // The group commits after the handler has returned: the restart test reads that offset back.
      await waitFor(() => committedOffset(admin), { until: (offset) => offset === '1', timeoutMs: 30_000, what: 'the group\'s committed offset' });
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  }, 60_000);

  it('keeps topics and committed offsets across a stop and a start on the same folder and port', async () => {
    const { port, pid } = broker!;
    await broker!.stop();
    expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
    const started = Date.now();
    broker = await startKafka({ dataDir });
    console.log(`kafka broker ready in ${Date.now() - started} ms (restart on the same folder)`);
    expect(broker.port).toBe(port);
    const admin = kafka().admin();
    try {
      await admin.connect();
      expect(await admin.listTopics()).toContain('broker-test');
      expect(await committedOffset(admin)).toBe('1');
    } finally {
      await admin.disconnect();
    }
  }, 120_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureKafka, missingKafkaPrerequisite, startKafka, type KafkaBroker } from '@leadforge/stack/infrastructure';

/** Brokers given to the tests (CI's or your own Kafka), else none: the tests start one. */
export const givenBrokers = (process.env.TEST_KAFKA_BROKERS || process.env.KAFKA_BROKERS || '')
  .split(',').map((b) => b.trim()).filter(Boolean);

/** Why no Kafka test can run here: no broker given and none can be started. */
export function kafkaSkipReason(): string | undefined {
  if (givenBrokers.length) return undefined;
  const missing = missingKafkaPrerequisite();
  return missing && `skipped: no ${missing.what}; ${missing.install}`;
}

/** Why a test needing a broker of its own (to stop and start it) cannot run here. */
export function ownKafkaSkipReason(): string | undefined {
  const missing = missingKafkaPrerequisite();
  return missing && `skipped: no ${missing.what}; ${missing.install}`;
}

/** The first start fetches the broker's jars (about 45 MB) from Maven Central. */
export const KAFKA_START_TIMEOUT_MS = 10 * 60_000;

/** An Apache Kafka node of the test's own, in a temporary folder removed by `close`. */
export interface OwnKafka {
  broker: KafkaBroker;
  brokers: string[];
  /** Starts the broker again on the same folder and port after `broker.stop()` or `broker.kill()`. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startOwnKafka(): Promise<OwnKafka> {
  await ensureKafka({ log: (line) => console.log(line) });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-kit-kafka-'));
  const own: OwnKafka = {
    broker: await startKafka({ dataDir, heapMb: 384 }),
    brokers: [],
    async restart() {
      own.broker = await startKafka({ dataDir, port: own.broker.port, controllerPort: own.broker.controllerPort, heapMb: 384 });
    },
    async close() {
      await own.broker.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  own.brokers = [own.broker.bootstrap];
  return own;
}

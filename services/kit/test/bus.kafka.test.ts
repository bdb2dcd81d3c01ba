import { describe } from 'vitest';
import { createKafkaBus } from '../src/bus/kafkaBus.ts';
import { busContract } from './bus.contract.ts';

const brokers = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean) ?? [];

describe.skipIf(!brokers.length)('kafka bus contract (skipped: set KAFKA_BROKERS to a broker to run it)', () => {
  // Group joins and rebalances take seconds on a real broker.
  busContract('kafka', () => createKafkaBus({ brokers, clientId: 'leadforge-contract-test', partitions: 4 }), { settleMs: 3_000, deliveryMs: 25_000 });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { register, type Histogram } from 'prom-client';
import { v7 as uuidv7 } from 'uuid';
import { TOPICS, type EventType } from '@leadforge/contracts';
import type { Bus, BusMessage } from '../src/bus/bus.ts';
import { createMemoryBus } from '../src/bus/memoryBus.ts';
import { startConsumer, type EventHandlers } from '../src/consumer/eventConsumer.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/testDatabase.ts';

const logger = pino({ level: 'silent' });
const topic = TOPICS.contactSubmission;

function submitted(id: string, data: object = {}): BusMessage {
  return {
    topic,
    key: id,
    envelope: {
      id: uuidv7(),
      type: 'contact.submitted' satisfies EventType,
      version: 1,
      occurred_at: new Date().toISOString(),
      key: id,
      data: { submission_id: id, name: 'Ada', email: 'ada@example.com', message: 'hello', submitted_at: new Date().toISOString(), ...data },
    },
  };
}

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const { values } = await register.getSingleMetric(name)!.get();
  return values.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((sum, v) => sum + v.value, 0);
}

describe('idempotent event consumer', () => {
  let tdb: TestDatabase;
  let bus: Bus;
  let group: string;
  let attempts: number;

  beforeAll(async () => {
    tdb = await createTestDatabase('consumer');
    await tdb.db.schema.createTable('inbox', (t) => {
      t.text('submission_id');
    });
  });
  afterAll(() => tdb.close());
  beforeEach(async () => {
    await tdb.db.raw('TRUNCATE kit_handled_events, kit_dead_letters, inbox');
    bus = createMemoryBus({ retryMs: 5 });
    group = `inbox-${uuidv7().slice(-8)}`;
    attempts = 0;
  });
  afterEach(() => bus.close());

  const consume = (handlers: EventHandlers) => startConsumer({ db: tdb.db, bus, service: 'test', group, topics: [topic], handlers, logger, maxAttempts: 3, retryMs: 5 });
  const recordSubmission: EventHandlers = {
    'contact.submitted': async (data, _envelope, trx) => {
      attempts++;
      await trx('inbox').insert({ submission_id: data.submission_id });
      if (data.message === 'fail') throw new Error(`cannot take ${data.submission_id}`);
    },
  };
  const inbox = async () => (await tdb.db('inbox').select('submission_id').orderBy('submission_id')).map((r) => r.submission_id);

  it('applies a redelivered event once', async () => {
    await consume(recordSubmission);
    const message = submitted('s1');
    await bus.publish([message]);
    await bus.publish([message]);
    expect(await inbox()).toEqual(['s1']);
    expect(attempts).toBe(1);
    expect(await metric('leadforge_events_handled_total', { group, outcome: 'duplicate' })).toBe(1);
    const delays = (await (register.getSingleMetric('leadforge_event_handle_delay_seconds') as Histogram).get()).values;
    expect(delays.find((v) => v.metricName === 'leadforge_event_handle_delay_seconds_count' && v.labels.group === group)?.value).toBe(2);
  });

  it('parks an event that keeps failing, with its effect rolled back, and goes on with the next one', async () => {
    await consume(recordSubmission);
    const failing = submitted('s1', { message: 'fail' });
    await bus.publish([failing, submitted('s1', { submission_id: 's2' })]);
    expect(attempts).toBe(4);
    expect(await inbox()).toEqual(['s2']);
    const parked = await tdb.db('kit_dead_letters').select('consumer', 'topic', 'event_id', 'envelope', 'error', 'attempts');
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ consumer: group, topic, event_id: failing.envelope.id, envelope: failing.envelope, attempts: 3 });
    expect(parked[0].error).toContain('cannot take s1');
    expect(await metric('leadforge_dead_letters_total', { group, service: 'test' })).toBe(1);

    await bus.publish([failing]);
    expect(attempts).toBe(4);
  });

  it('parks an event whose data breaks its contract without calling the handler', async () => {
    await consume(recordSubmission);
    const invalid = submitted('s1', { email: 42 });
    await bus.publish([invalid]);
    expect(attempts).toBe(0);
    const [parked] = await tdb.db('kit_dead_letters').select('event_id', 'error', 'attempts');
    expect(parked).toMatchObject({ event_id: invalid.envelope.id, attempts: 0 });
    expect(parked.error).toMatch(/^invalid data: .*email/);
  });

  it('records events it has no handler for as handled and skips them', async () => {
    await consume({});
    const message = submitted('s1');
    await bus.publish([message]);
    const handled = await tdb.db('kit_handled_events').where({ consumer: group }).pluck('event_id');
    expect(handled).toEqual([message.envelope.id]);
    expect(await metric('leadforge_events_handled_total', { group, outcome: 'skipped' })).toBe(1);
  });

  it('skips a message that is not an event envelope', async () => {
    await consume(recordSubmission);
    await bus.publish([{ topic, key: 'k', envelope: { id: 'not-a-uuid' } as never }, submitted('s1')]);
    expect(await inbox()).toEqual(['s1']);
    expect(await metric('leadforge_events_handled_total', { group, outcome: 'malformed' })).toBe(1);
  });
});

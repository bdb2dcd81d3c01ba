import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { register, type Histogram } from 'prom-client';
import { v7 as uuidv7 } from 'uuid';
import { TOPICS, type EventType } from '@leadforge/contracts';
import type { Bus, BusMessage } from '../src/events/bus/bus.ts';
import { createMemoryBus } from '../src/events/bus/memoryBus.ts';
import { listDeadLetters, replayDeadLetters } from '../src/events/consumer/deadLetters.ts';
import { PoisonEvent, startConsumer, type EventHandlers } from '../src/events/consumer/eventConsumer.ts';
import { OutboxRelay } from '../src/events/outbox/outbox.ts';
import { createTestDatabase, type TestDatabase, waitFor } from '@leadforge/testing';

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
    failuresToCome = 0;
    poisonFixed = false;
  });
  afterEach(() => bus.close());

  const consume = (handlers: EventHandlers, retryForMs = 200) => startConsumer({ db: tdb.db, bus, service: 'test', group, topics: [topic], handlers, logger, retryForMs });
  let failuresToCome = 0;
  let poisonFixed = false;
  const recordSubmission: EventHandlers = {
    'contact.submitted': async (data, _envelope, trx) => {
      attempts++;
      await trx('inbox').insert({ submission_id: data.submission_id });
      if (data.message === 'fail') throw new Error(`cannot take ${data.submission_id}`);
      if (data.message === 'poison' && !poisonFixed) throw new PoisonEvent(`${data.submission_id} can never be taken`);
      if (failuresToCome > 0) {
        failuresToCome--;
        throw new Error('the database is restarting');
      }
    },
  };
  const inbox = async () => (await tdb.db('inbox').select('submission_id').orderBy('submission_id')).map((r) => r.submission_id);
  const handledIds = () => tdb.db('kit_handled_events').where({ consumer: group }).pluck('event_id');

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

  it('delivers an event whose handler fails again until it succeeds, applying it once', async () => {
    await consume(recordSubmission, 60_000);
    failuresToCome = 3;
    await bus.publish([submitted('s1')]);
    expect(attempts).toBe(4);
    expect(await inbox()).toEqual(['s1']);
    expect(await tdb.db('kit_dead_letters').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await metric('leadforge_events_handled_total', { group, outcome: 'failed' })).toBe(3);
  });

  it('parks an event still failing after retryForMs, unhandled and rolled back, and goes on with the next one', async () => {
    await consume(recordSubmission, 150);
    const failing = submitted('s1', { message: 'fail' });
    await bus.publish([failing, submitted('s1', { submission_id: 's2' })]);
    expect(attempts).toBeGreaterThan(2);
    expect(await inbox()).toEqual(['s2']);
    const parked = await tdb.db('kit_dead_letters').select('consumer', 'topic', 'event_id', 'envelope', 'error', 'attempts');
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ consumer: group, topic, event_id: failing.envelope.id, envelope: failing.envelope, attempts: attempts - 1 });
    expect(parked[0].error).toContain('cannot take s1');
    expect(await handledIds()).not.toContain(failing.envelope.id);
    expect(await metric('leadforge_dead_letters_total', { group, service: 'test' })).toBe(1);
  });

  it('parks at once an event its handler calls poison', async () => {
    await consume(recordSubmission, 60_000);
    const poison = submitted('s1', { message: 'poison' });
    await bus.publish([poison]);
    expect(attempts).toBe(1);
    const [parked] = await tdb.db('kit_dead_letters').select('event_id', 'error', 'attempts');
    expect(parked).toMatchObject({ event_id: poison.envelope.id, attempts: 1 });
    expect(parked.error).toContain('can never be taken');
  });

  it('parks an event whose data breaks its contract without calling the handler', async () => {
    await consume(recordSubmission);
    const invalid = submitted('s1', { email: 42 });
    await bus.publish([invalid]);
    expect(attempts).toBe(0);
    const [parked] = await tdb.db('kit_dead_letters').select('event_id', 'error', 'attempts');
    expect(parked).toMatchObject({ event_id: invalid.envelope.id, attempts: 0 });
    expect(parked.error).toMatch(/^invalid data: .*email/);
    expect(await handledIds()).toEqual([]);
  });

  it('leaves events it has no handler for unrecorded, for a replica that knows their type', async () => {
    await consume({});
    await bus.publish([submitted('s1')]);
    expect(await handledIds()).toEqual([]);
    expect(await metric('leadforge_events_handled_total', { group, outcome: 'skipped' })).toBe(1);
  });

  it('parks a message that is not an event envelope, and one that is not JSON, and goes on', async () => {
    await consume(recordSubmission);
    const notJson: BusMessage = { topic, key: 'k', envelope: {} as never, undecodable: '{"truncated' };
    await bus.publish([{ topic, key: 'k', envelope: { id: 'not-a-uuid' } as never }, notJson, submitted('s1')]);
    expect(await inbox()).toEqual(['s1']);
    expect(await metric('leadforge_events_handled_total', { group, outcome: 'malformed' })).toBe(2);
    const parked = await tdb.db('kit_dead_letters').orderBy('id').select('envelope', 'error');
    expect(parked).toEqual([
      { envelope: { id: 'not-a-uuid' }, error: 'not an event envelope' },
      { envelope: { undecodable: '{"truncated' }, error: 'not JSON' },
    ]);
    // The same message again is the same dead letter.
    await bus.publish([notJson]);
    expect(await tdb.db('kit_dead_letters').count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('makes a failing handler visible: an error log line at its first failure naming the event, then at a bounded rate; how long it has failed as a metric', async () => {
    const lines: Record<string, unknown>[] = [];
    const logged = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    await startConsumer({ db: tdb.db, bus, service: 'test', group, topics: [topic], handlers: recordSubmission, logger: logged, retryForMs: 60_000 });
    failuresToCome = Number.MAX_SAFE_INTEGER;
    const message = submitted('s1');
    const delivered = bus.publish([message]);
    await expect.poll(() => attempts).toBeGreaterThanOrEqual(3);
    await expect.poll(() => metric('leadforge_consumer_failing_seconds', { service: 'test', group })).toBeGreaterThan(0);
    failuresToCome = 0;
    await delivered;
    const failures = lines.filter((l) => l.msg === 'event handler failed; the event will be delivered again');
    // Several failures within a minute: one line, the first, at error.
    expect(failures).toEqual([expect.objectContaining({ level: 50, group, eventId: message.envelope.id, topic, type: 'contact.submitted', reason: 'the database is restarting', attempts: 1 })]);
    expect(await metric('leadforge_consumer_failing_seconds', { service: 'test', group })).toBe(0);
  });

  it('parks an event type sooner where retryForMsByType says so, and calls onParked in the parking transaction', async () => {
    const hooked: string[] = [];
    await startConsumer({
      db: tdb.db, bus, service: 'test', group, topics: [topic], handlers: recordSubmission, logger,
      retryForMs: 60_000,
      retryForMsByType: { 'contact.submitted': 50 },
      onParked: async (parked, trx) => {
        await trx('inbox').insert({ submission_id: `parked:${(parked.envelope.data as { submission_id: string }).submission_id}` });
        hooked.push(`${parked.type} ${parked.attempts} ${parked.error.split('\n')[0]}`);
      },
    });
    const failing = submitted('s1', { message: 'fail' });
    await bus.publish([failing]);
    // The hook's effect and the dead letter are committed together; the handler's own insert is rolled back.
    expect(await inbox()).toEqual(['parked:s1']);
    expect(hooked).toEqual([`contact.submitted ${attempts} Error: cannot take s1`]);
    expect(await listDeadLetters(tdb.db, { group })).toMatchObject([{ eventId: failing.envelope.id, attempts }]);
  });

  it('parks the event all the same when the onParked hook throws', async () => {
    await startConsumer({
      db: tdb.db, bus, service: 'test', group, topics: [topic], handlers: recordSubmission, logger, retryForMs: 60_000,
      onParked: async (_parked, trx) => {
        await trx('inbox').insert({ submission_id: 'hook' });
        throw new Error('the hook is broken');
      },
    });
    const poison = submitted('s1', { message: 'poison' });
    await bus.publish([poison, submitted('s2')]);
    expect(await inbox()).toEqual(['s2']);
    expect((await listDeadLetters(tdb.db, { group })).map((d) => d.eventId)).toEqual([poison.envelope.id]);
  });

  it('replays parked events through the outbox: the group that parked one handles it, the others skip it', async () => {
    await consume(recordSubmission, 60_000);
    const otherGroup = `${group}-other`;
    let otherCalls = 0;
    await startConsumer({ db: tdb.db, bus, service: 'test', group: otherGroup, topics: [topic], logger, handlers: { 'contact.submitted': async () => { otherCalls++; } } });
    const poison = submitted('s1', { message: 'poison' });
    await bus.publish([poison, { topic, key: 'k', envelope: { id: 'not-a-uuid' } as never }]);
    expect(otherCalls).toBe(1);
    const parked = await listDeadLetters(tdb.db, { group });
    expect(parked.map((d) => d.type).sort()).toEqual(['contact.submitted', 'unknown']);
    expect(parked.find((d) => d.type === 'contact.submitted')).toMatchObject({ eventId: poison.envelope.id, attempts: 1 });

    // The fix: this group's handler now takes the submission.
    poisonFixed = true;
    const result = await replayDeadLetters(tdb.db, { group });
    expect(result.replayed).toEqual([poison.envelope.id]);
    expect(result.kept).toHaveLength(1);
    const relay = new OutboxRelay({ db: tdb.db, bus, service: 'test', logger });
    expect(await relay.drainOnce()).toBe(1);
    await relay.stop();
    expect(await inbox()).toEqual(['s1']);
    expect(otherCalls).toBe(1);
    expect(await handledIds()).toEqual([poison.envelope.id]);
    expect((await listDeadLetters(tdb.db, { group })).map((d) => d.type)).toEqual(['unknown']);
  });

  it('wakes the running relay when it replays, so the event goes out without waiting for a poll', async () => {
    await consume(recordSubmission, 60_000);
    const poison = submitted('s1', { message: 'poison' });
    await bus.publish([poison]);
    expect(await listDeadLetters(tdb.db, { group })).toHaveLength(1);
    const relay = new OutboxRelay({ db: tdb.db, bus, service: 'replay-wake', logger, pollMs: 60_000 });
    relay.start();
    // Its first look found nothing: from here only a wake publishes within the minute.
    await waitFor(async () => (await register.getSingleMetric('leadforge_outbox_backlog')!.get()).values.some((v) => v.labels.service === 'replay-wake'), { what: 'the relay\'s first look at the outbox' });
    poisonFixed = true;
    expect((await replayDeadLetters(tdb.db, { group })).replayed).toEqual([poison.envelope.id]);
    await waitFor(inbox, { until: (ids) => ids.includes('s1'), timeoutMs: 5_000, what: 'the replayed submission handled' });
    await relay.stop();
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import kafkajs from 'kafkajs';
import pino from 'pino';
import { register } from 'prom-client';
import { TOPICS, type EventEnvelope } from '@leadforge/contracts';
import type { Bus, BusMessage } from '../src/events/bus/bus.ts';
import { createMemoryBus } from '../src/events/bus/memoryBus.ts';
import { startConsumer } from '../src/events/consumer/eventConsumer.ts';
import { emitEvent, OutboxRelay, replayParkedOutbox } from '../src/events/outbox/outbox.ts';
import { createTestDatabase, type TestDatabase, waitFor } from '@leadforge/testing';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function creditsChanged(userId: string, balance: number) {
  return { user_id: userId, delta: 1, balance, reason: 'test' };
}

/** A bus that records what it was asked to publish and passes it on. */
function recordingBus(inner: Bus, publishDelayMs = 0): Bus & { published: BusMessage[] } {
  const published: BusMessage[] = [];
  return {
    ...inner,
    published,
    async publish(messages) {
      await sleep(publishDelayMs);
      published.push(...messages);
      await inner.publish(messages);
    },
  };
}

async function unpublished(db: TestDatabase['db']): Promise<number> {
  const [{ count }] = await db('kit_outbox').whereNull('published_at').count({ count: '*' });
  return Number(count);
}

describe('transactional outbox', () => {
  let tdb: TestDatabase;
  let memory: Bus;

  beforeAll(async () => {
    tdb = await createTestDatabase('outbox');
    await tdb.db.schema.createTable('credit_effects', (t) => {
      t.uuid('event_id');
      t.text('user_id');
      t.integer('balance');
    });
  });
  afterAll(() => tdb.close());
  beforeEach(async () => {
    await tdb.db.raw('TRUNCATE kit_outbox, kit_handled_events, kit_dead_letters, kit_outbox_relay_lease, credit_effects');
    memory = createMemoryBus({ retryMs: 5 });
  });
  afterEach(() => memory.close());

  const consumeCredits = (bus: Bus) => startConsumer({
    db: tdb.db,
    bus,
    service: 'test',
    group: 'credit-effects',
    topics: [TOPICS.billingCredits],
    logger,
    handlers: {
      'credits.changed': async (data, envelope, trx) => {
        await trx('credit_effects').insert({ event_id: envelope.id, user_id: data.user_id, balance: data.balance });
      },
    },
  });

  it('writes a valid envelope in the caller\'s transaction and refuses data that breaks the contract', async () => {
    const envelope = await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 5), { traceparent: '00-abc-def-01' }));
    expect(envelope).toMatchObject({ type: 'credits.changed', version: 1, key: 'u1', traceparent: '00-abc-def-01', data: creditsChanged('u1', 5) });
    expect(envelope.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const [row] = await tdb.db('kit_outbox').select('topic', 'key', 'envelope');
    expect(row).toEqual({ topic: TOPICS.billingCredits, key: 'u1', envelope });

    await expect(tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', { user_id: 'u1' } as never)))
      .rejects.toThrow(/credits.changed does not match its contract: .*balance/);
  });

  it('publishes nothing for a change whose transaction rolled back', async () => {
    const bus = recordingBus(memory);
    const relay = new OutboxRelay({ db: tdb.db, bus, service: 'test', logger });
    await expect(tdb.db.transaction(async (trx) => {
      await emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 1));
      throw new Error('change failed');
    })).rejects.toThrow('change failed');
    expect(await relay.drainOnce()).toBe(0);
    expect(bus.published).toEqual([]);
    await relay.stop();
  });

  it('republishes after a crash between publish and mark at once when the same replica restarts, and the consumer applies the effect once', async () => {
    await consumeCredits(memory);
    const envelopes = await tdb.db.transaction(async (trx) => [
      await emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 1)),
      await emitEvent(trx, 'credits.changed', 'u2', creditsChanged('u2', 2)),
    ]);
    const crashing: Bus = {
      ...memory,
      async publish(messages) {
        await memory.publish(messages);
        throw new Error('relay died before marking the rows published');
      },
    };
    // The crashed relay's lease would keep another replica out for a minute.
    const crashed = new OutboxRelay({ db: tdb.db, bus: crashing, service: 'test', logger, leaseMs: 60_000, replica: 'r1' });
    await expect(crashed.drainOnce()).rejects.toThrow('relay died');
    expect(await unpublished(tdb.db)).toBe(2);

    const otherReplica = new OutboxRelay({ db: tdb.db, bus: recordingBus(memory), service: 'test', logger, replica: 'r2' });
    expect(await otherReplica.drainOnce()).toBe(0);
    // The same replica restarted (a new process on the same host and port) does not wait out its own lease.
    const restarted = new OutboxRelay({ db: tdb.db, bus: recordingBus(memory), service: 'test', logger, replica: 'r1' });
    expect(await restarted.drainOnce()).toBe(2);
    expect(await unpublished(tdb.db)).toBe(0);

    const effects = await tdb.db('credit_effects').select('event_id').orderBy('balance');
    expect(effects.map((e) => e.event_id)).toEqual(envelopes.map((e) => e.id));
    await Promise.all([restarted.stop(), otherReplica.stop()]);
  });

  it('keeps order per key, across batches and a failing publish, without skipping a row', async () => {
    const order = new Map<string, number[]>();
    let failures = 1;
    const flaky: Bus = {
      ...memory,
      async publish(messages) {
        if (failures-- > 0) throw new Error('broker unavailable');
        for (const { envelope } of messages) {
          const { user_id, balance } = envelope.data as { user_id: string; balance: number };
          order.set(user_id, [...(order.get(user_id) ?? []), balance]);
        }
      },
    };
    for (let i = 0; i < 30; i++) {
      await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', `u${i % 3}`, creditsChanged(`u${i % 3}`, i)));
    }
    const relay = new OutboxRelay({ db: tdb.db, bus: flaky, service: 'test', logger, pollMs: 5, batch: 7 });
    relay.start();
    await waitFor(() => [...order.values()].flat().length >= 30, { timeoutMs: 5_000, what: 'all 30 events' });
    await relay.stop();
    for (let k = 0; k < 3; k++) expect(order.get(`u${k}`)).toEqual([...Array(10).keys()].map((j) => j * 3 + k));
    expect(await unpublished(tdb.db)).toBe(0);
  });

  it('wakes on commit so a running relay publishes without waiting for its poll', async () => {
    const bus = recordingBus(memory);
    const relay = new OutboxRelay({ db: tdb.db, bus, service: 'wake', logger, pollMs: 60_000 });
    relay.start();
    // Its first look at the outbox found it empty: from here only a wake can publish within the minute.
    await waitFor(async () => (await register.getSingleMetric('leadforge_outbox_backlog')!.get()).values.some((v) => v.labels.service === 'wake'), { what: 'the relay\'s first look at the outbox' });
    await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 1)));
    await waitFor(() => bus.published.length === 1, { timeoutMs: 2_000, what: 'the woken relay' });
    await relay.stop();
    const counted = await register.getSingleMetric('leadforge_events_published_total')!.get();
    expect(counted.values.find((v) => v.labels.service === 'wake')?.value).toBe(1);
    const backlog = await register.getSingleMetric('leadforge_outbox_backlog')!.get();
    expect(backlog.values.find((v) => v.labels.service === 'wake')?.value).toBe(0);
  });

  it('stops within seconds while a publish hangs, leaving its rows for the next relay', async () => {
    let publishing = false;
    const hanging: Bus = { ...memory, publish: () => { publishing = true; return new Promise<void>(() => {}); } };
    await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 1)));
    const relay = new OutboxRelay({ db: tdb.db, bus: hanging, service: 'test', logger, pollMs: 5 });
    relay.start();
    await waitFor(() => publishing, { what: 'the publish that hangs' });
    // Stopping at all is the point (the test's own timeout catches a stop that waits for the publish).
    await relay.stop();
    expect(await unpublished(tdb.db)).toBe(1);
    const next = new OutboxRelay({ db: tdb.db, bus: recordingBus(memory), service: 'test', logger });
    expect(await next.drainOnce()).toBe(1);
    await next.stop();
  }, 15_000);

  it('lets only one of two replicas\' relays on a database publish at a time', async () => {
    const bus = recordingBus(memory, 5);
    const relays = [1, 2].map((replica) => new OutboxRelay({ db: tdb.db, bus, service: 'test', logger, pollMs: 5, batch: 4, replica: `r${replica}` }));
    const sent: EventEnvelope[] = [];
    relays.forEach((relay) => relay.start());
    for (let i = 0; i < 20; i++) {
      sent.push(await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', `u${i % 4}`, creditsChanged(`u${i % 4}`, i))));
    }
    await waitFor(() => bus.published.length >= 20, { timeoutMs: 5_000, what: 'all 20 events' });
    // Stopped relays publish nothing more: what they published is final.
    await Promise.all(relays.map((relay) => relay.stop()));
    expect(bus.published.map((m) => m.envelope.id)).toEqual(sent.map((e) => e.id));
  });

  it('parks an event the bus refuses for good, publishes every later one, and replays it on request', async () => {
    const bus = recordingBus(memory);
    const refusing: Bus = {
      ...bus,
      async publish(messages) {
        if (messages.some((m) => m.key === 'huge')) {
          // What kafkajs's retrier throws for a record above the broker's message.max.bytes.
          const refusal = new kafkajs.KafkaJSProtocolError({ type: 'MESSAGE_TOO_LARGE', code: 10, retriable: false, message: 'The request included a message larger than the max message size the server will accept' } as never);
          // kafkajs's typings leave out the options its retrier passes.
          throw new (kafkajs.KafkaJSNonRetriableError as unknown as new (e: Error, options: { cause: Error }) => Error)(refusal, { cause: refusal });
        }
        await bus.publish(messages);
      },
    };
    const emit = (key: string, balance: number) => tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', key, creditsChanged(key, balance)));
    const [first, huge, later] = [await emit('u1', 1), await emit('huge', 2), await emit('u2', 3)];
    const relay = new OutboxRelay({ db: tdb.db, bus: refusing, service: 'parking', logger, pollMs: 5 });
    relay.start();
    await waitFor(() => bus.published.length >= 2, { timeoutMs: 5_000, what: 'the events around the refused one' });
    expect(bus.published.map((m) => m.envelope.id)).toEqual([first.id, later.id]);
    const [parked] = await tdb.db('kit_outbox').whereNotNull('parked_at').select('event_id', 'last_error', 'published_at');
    expect(parked).toMatchObject({ event_id: huge.id, published_at: null });
    expect(parked.last_error).toMatch(/larger than the max message size/);
    const parkedGauge = await register.getSingleMetric('leadforge_work_queue_parked')!.get();
    expect(parkedGauge.values.find((v) => v.labels.service === 'parking' && v.labels.queue === 'outbox')?.value).toBe(1);
    await relay.stop();

    expect(await replayParkedOutbox(tdb.db)).toBe(1);
    const accepting = new OutboxRelay({ db: tdb.db, bus, service: 'parking', logger });
    expect(await accepting.drainOnce()).toBe(1);
    expect(bus.published.map((m) => m.envelope.id)).toEqual([first.id, later.id, huge.id]);
    await accepting.stop();
  });

  it('retries a failed publish after a jittered pause, not the same pause in every service', async () => {
    const lines: { msg: string; retryInMs?: number }[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => { lines.push(JSON.parse(line)); } });
    let failures = 3;
    const bus = recordingBus(memory);
    const flaky: Bus = { ...bus, async publish(messages) { if (failures-- > 0) throw new Error('broker unavailable'); await bus.publish(messages); } };
    await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 1)));
    // Full jitter draws each pause from [0, ceiling]: with the draw at its lowest, no pause is left.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    const relay = new OutboxRelay({ db: tdb.db, bus: flaky, service: 'test', logger: recording, pollMs: 1_000 });
    try {
      relay.start();
      await waitFor(() => bus.published.length === 1, { timeoutMs: 20_000, what: 'the event after three failed publishes' });
    } finally {
      random.mockRestore();
      await relay.stop();
    }
    const pauses = lines.filter((l) => l.retryInMs !== undefined).map((l) => l.retryInMs);
    expect(pauses).toEqual([1, 1, 1]);
  }, 30_000);

  it('retries a failed publish within half a second at first, however long its fallback poll', async () => {
    const lines: { msg: string; retryInMs?: number }[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => { lines.push(JSON.parse(line)); } });
    let failures = 1;
    const bus = recordingBus(memory);
    const flaky: Bus = { ...bus, async publish(messages) { if (failures-- > 0) throw new Error('broker unavailable'); await bus.publish(messages); } };
    await tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', 1)));
    // The draw at its highest: the pause is the ceiling of the first retry.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const relay = new OutboxRelay({ db: tdb.db, bus: flaky, service: 'test', logger: recording, pollMs: 60_000 });
    try {
      relay.start();
      await waitFor(() => bus.published.length === 1, { timeoutMs: 10_000, what: 'the event after one failed publish' });
    } finally {
      random.mockRestore();
      await relay.stop();
    }
    const pauses = lines.filter((l) => l.retryInMs !== undefined).map((l) => l.retryInMs);
    expect(pauses).toEqual([500]);
  });

  it('deletes published rows past keepPublishedMs, never unpublished ones, however old', async () => {
    const emit = (balance: number) => tdb.db.transaction((trx) => emitEvent(trx, 'credits.changed', 'u1', creditsChanged('u1', balance)));
    const [oldPublished, recentPublished, oldUnpublished] = [await emit(1), await emit(2), await emit(3)];
    const age = (days: number) => tdb.db.raw(`now() - interval '${days} days'`);
    await tdb.db('kit_outbox').where({ event_id: oldPublished.id }).update({ created_at: age(9), published_at: age(8) });
    await tdb.db('kit_outbox').where({ event_id: recentPublished.id }).update({ published_at: age(1) });
    await tdb.db('kit_outbox').where({ event_id: oldUnpublished.id }).update({ created_at: age(30) });
    const relay = new OutboxRelay({ db: tdb.db, bus: memory, service: 'test', logger, keepPublishedMs: 7 * 24 * 3600_000 });

    expect(await relay.prunePublished()).toBe(1);
    expect((await tdb.db('kit_outbox').orderBy('seq').select('event_id')).map((r) => r.event_id)).toEqual([recentPublished.id, oldUnpublished.id]);
    expect(await relay.prunePublished()).toBe(0);
  });
});

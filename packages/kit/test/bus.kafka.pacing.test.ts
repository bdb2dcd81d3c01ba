import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusMessage } from '../src/events/bus/bus.ts';
import { createKafkaBus } from '../src/events/bus/kafkaBus.ts';

/**
 * The bus's own pacing (one send at a time, jittered waits) against a stand-in for the kafkajs
 * client whose sends and consumers the test drives by hand; bus.kafka*.test.ts cover the real broker.
 */
const client = vi.hoisted(() => {
  interface PendingSend { resolve(): void; reject(error: Error): void }
  type Listener = (event: { payload: Record<string, unknown> }) => void;
  const state = {
    sends: [] as PendingSend[],
    inFlight: 0,
    mostInFlight: 0,
    consumers: [] as { emit(event: string, payload: Record<string, unknown>): void; eachMessage?: (payload: unknown) => Promise<void> }[],
    reset() {
      state.sends = [];
      state.inFlight = 0;
      state.mostInFlight = 0;
      state.consumers = [];
    },
  };
  const events = { END_BATCH_PROCESS: 'end_batch', GROUP_JOIN: 'group_join', COMMIT_OFFSETS: 'commit_offsets', CRASH: 'crash' };
  class KafkaJSError extends Error {}
  class Kafka {
    producer() {
      return {
        connect: async () => undefined,
        disconnect: async () => undefined,
        sendBatch: () => new Promise<void>((resolve, reject) => {
          state.inFlight++;
          state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
          const settle = () => { state.inFlight--; };
          state.sends.push({ resolve: () => { settle(); resolve(); }, reject: (error) => { settle(); reject(error); } });
        }),
      };
    }
    admin() {
      return { connect: async () => undefined, disconnect: async () => undefined, createTopics: async () => true, describeCluster: async () => ({}) };
    }
    consumer() {
      const listeners = new Map<string, Listener[]>();
      const consumer = {
        events,
        on(event: string, listener: Listener) { listeners.set(event, [...(listeners.get(event) ?? []), listener]); },
        emit(event: string, payload: Record<string, unknown>) { for (const listener of listeners.get(event) ?? []) listener({ payload }); },
        connect: async () => undefined,
        subscribe: async () => undefined,
        disconnect: async () => undefined,
        eachMessage: undefined as ((payload: unknown) => Promise<void>) | undefined,
        async run({ eachMessage }: { eachMessage: (payload: unknown) => Promise<void> }) {
          consumer.eachMessage = eachMessage;
          consumer.emit(events.GROUP_JOIN, { memberAssignment: {} });
        },
      };
      state.consumers.push(consumer);
      return consumer;
    }
  }
  return { state, module: { Kafka, KafkaJSError, Partitioners: { DefaultPartitioner: () => () => 0 }, logLevel: { NOTHING: 0, ERROR: 1, WARN: 2, INFO: 4, DEBUG: 5 } } };
});

vi.mock('kafkajs', () => ({ default: client.module }));

const message = (n: number): BusMessage => ({
  topic: 'paced', key: 'k',
  envelope: { id: `e${n}`, type: 'paced.tested', version: 1, occurred_at: new Date(0).toISOString(), key: 'k', data: { n } },
});

/** Runs whatever is due now, and every promise callback that follows, without moving the clock. */
const runDue = () => vi.advanceTimersByTimeAsync(0);

describe('the Kafka bus, paced against a stand-in client', () => {
  beforeEach(() => {
    client.state.reset();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('never has two sends in flight: after a publish timed out, the next send waits until the first has ended', async () => {
    const bus = createKafkaBus({ brokers: ['127.0.0.1:9092'], clientId: 'pacing-test', publishTimeoutMs: 1_000 });
    const first = bus.publish([message(1)]);
    const firstFailed = expect(first).rejects.toThrow(/timed out/);
    await runDue();
    expect(client.state.sends).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await firstFailed;

    // The first send is still retrying inside the client: the next batch must not go out beside it.
    const second = bus.publish([message(2)]);
    await runDue();
    expect(client.state.sends).toHaveLength(1);
    client.state.sends[0].reject(new Error('gave up at last'));
    await runDue();
    expect(client.state.sends).toHaveLength(2);
    client.state.sends[1].resolve();
    await second;
    expect(client.state.mostInFlight).toBe(1);
  });

  it('never sends a publish whose time ran out while it waited for its turn', async () => {
    const bus = createKafkaBus({ brokers: ['127.0.0.1:9092'], clientId: 'pacing-test', publishTimeoutMs: 1_000 });
    const first = bus.publish([message(1)]).catch((error: Error) => error);
    await runDue();
    const second = bus.publish([message(2)]).catch((error: Error) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await first).toBeInstanceOf(Error);
    expect(await second).toBeInstanceOf(Error);
    client.state.sends[0].resolve();
    await runDue();
    // Its caller was told it failed (the outbox will publish it again): sending it now would be a duplicate.
    expect(client.state.sends).toHaveLength(1);

    const third = bus.publish([message(3)]);
    await runDue();
    expect(client.state.sends).toHaveLength(2);
    client.state.sends[1].resolve();
    await third;
  });

  it('waits a jittered time before handing a failed message to its handler again', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25);
    const bus = createKafkaBus({ brokers: ['127.0.0.1:9092'], clientId: 'pacing-test', retryMs: 1_000, maxRetryMs: 60_000, heartbeatIntervalMs: 10_000 });
    let calls = 0;
    await bus.subscribe({ group: 'g', topics: ['paced'], handler: async () => { if (++calls === 1) throw new Error('database restarting'); } });
    const delivered = client.state.consumers[0].eachMessage!({
      topic: 'paced', partition: 0, heartbeat: async () => undefined,
      message: { key: Buffer.from('k'), value: Buffer.from(JSON.stringify(message(1).envelope)), offset: '0', headers: {} },
    });
    await runDue();
    expect(calls).toBe(1);
    // Full jitter: a quarter of the 1 s ceiling, where every process used to wait the whole second together.
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toBe(2);
    await delivered;
  });

  it('starts a consumer the client gave up on again after a jittered wait', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25);
    const bus = createKafkaBus({ brokers: ['127.0.0.1:9092'], clientId: 'pacing-test', restartMs: 4_000, maxRetryMs: 60_000 });
    await bus.subscribe({ group: 'g', topics: ['paced'], handler: async () => undefined });
    client.state.consumers[0].emit('crash', { restart: false, error: new Error('unrecoverable') });
    await runDue();
    expect(client.state.consumers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(client.state.consumers).toHaveLength(2);
    await bus.close();
  });
});

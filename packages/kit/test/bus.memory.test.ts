import { afterEach, describe, expect, it, vi } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { BusMessage } from '../src/events/bus/bus.ts';
import { createBus, createStackBus, sharedMemoryBus } from '../src/events/bus/createBus.ts';
import { createMemoryBus } from '../src/events/bus/memoryBus.ts';
import pino from 'pino';
import { waitFor } from '@leadforge/testing';
import { busContract } from './bus.contract.ts';

busContract('memory', () => createMemoryBus({ retryMs: 10 }), { deliveryMs: 2_000 });

function message(topic: string, key: string, n: number): BusMessage {
  return { topic, key, envelope: { id: uuidv7(), type: 'memory.tested', version: 1, occurred_at: new Date().toISOString(), key, data: { n } } };
}

describe('memory bus in local mode', () => {
  it('resolves publish only once every subscribed group has handled the message', async () => {
    const bus = createMemoryBus();
    const handled: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    await bus.subscribe({ group: 'slow', topics: ['t'], handler: async () => { await gate; handled.push('slow'); } });
    await bus.subscribe({ group: 'fast', topics: ['t'], handler: async () => { handled.push('fast'); } });
    let published = false;
    const publishing = bus.publish([message('t', 'k', 1)]).then(() => { published = true; });
    await waitFor(() => handled.includes('fast'), { timeoutMs: 1_000, what: 'the fast group' });
    expect(published).toBe(false);
    release();
    await publishing;
    expect(handled).toEqual(['fast', 'slow']);
    await bus.close();
  });

  it('does not hang when a handler publishes to a key it is itself holding', async () => {
    const bus = createMemoryBus();
    const seen: number[] = [];
    await bus.subscribe({
      group: 'echo',
      topics: ['t'],
      handler: async (m) => {
        const n = (m.envelope.data as { n: number }).n;
        seen.push(n);
        if (n === 1) await bus.publish([message('t', m.key, 2)]);
      },
    });
    await bus.publish([message('t', 'k', 1)]);
    await waitFor(() => seen.length === 2, { timeoutMs: 1_000, what: 'the echoed message' });
    expect(seen).toEqual([1, 2]);
    await bus.close();
  });

  it('stops waiting for a group whose last member left', async () => {
    const bus = createMemoryBus({ retryMs: 10 });
    let attempts = 0;
    const subscription = await bus.subscribe({ group: 'failing', topics: ['t'], handler: async () => { attempts += 1; throw new Error('always'); } });
    const publishing = bus.publish([message('t', 'k', 1)]);
    await waitFor(() => attempts >= 2, { what: 'the message failing and being retried' });
    await subscription.close();
    await publishing;
    await bus.close();
  });

  it('keeps only the newest messages for groups that join later', async () => {
    const bus = createMemoryBus({ retain: 3 });
    await bus.publish([1, 2, 3, 4, 5].map((n) => message('t', 'k', n)));
    const seen: number[] = [];
    await bus.subscribe({ group: 'late', topics: ['t'], handler: async (m) => { seen.push((m.envelope.data as { n: number }).n); } });
    await waitFor(() => seen.length === 3, { timeoutMs: 1_000, what: 'the retained messages' });
    expect(seen).toEqual([3, 4, 5]);
    await bus.close();
  });

  it('gives every service of the process the same bus; closing one service ends only its subscriptions', async () => {
    const logger = pino({ level: 'silent' });
    const first = createBus(undefined, logger);
    const second = createBus(undefined, logger);
    expect(first.kind).toBe('memory');
    const seen: string[] = [];
    await first.subscribe({ group: 'one', topics: ['shared'], handler: async () => { seen.push('one'); } });
    await second.subscribe({ group: 'two', topics: ['shared'], handler: async () => { seen.push('two'); } });
    await first.close();
    await second.publish([message('shared', 'k', 1)]);
    expect(seen).toEqual(['two']);
    expect(await sharedMemoryBus().ready()).toBe(true);
    await second.close();
  });

  it('gives each local stack a bus of its own: a later stack of the process neither gets nor replays an earlier one\'s events', async () => {
    const logger = pino({ level: 'silent' });
    const env = { KAFKA_BROKERS: '' };
    const earlier = createStackBus(env, logger);
    const seenByEarlier: number[] = [];
    await earlier.subscribe({ group: 'admin', topics: ['kept'], handler: async (m) => { seenByEarlier.push((m.envelope.data as { n: number }).n); } });
    await earlier.publish([message('kept', 'k', 1)]);
    const later = createStackBus(env, logger);
    const seenByLater: number[] = [];
    // A new group on a retained topic starts at its beginning: on a shared bus it would get message 1.
    await later.subscribe({ group: 'admin-replica', topics: ['kept'], handler: async (m) => { seenByLater.push((m.envelope.data as { n: number }).n); } });
    await later.publish([message('kept', 'k', 2)]);
    expect({ seenByEarlier, seenByLater }).toEqual({ seenByEarlier: [1], seenByLater: [2] });
    await Promise.all([earlier.close(), later.close()]);
  });
});

describe('memory bus retries', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('waits a jittered time before delivering a failed message again, so services do not retry in lockstep', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.25);
    const bus = createMemoryBus({ retryMs: 1_000, maxRetryMs: 60_000 });
    let calls = 0;
    await bus.subscribe({ group: 'flaky', topics: ['t'], handler: async () => { if (++calls <= 2) throw new Error('database restarting'); } });
    const published = bus.publish([message('t', 'k', 1)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    // Full jitter: a quarter of the 1 s ceiling, then of the doubled 2 s one.
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    await published;
    await bus.close();
  });
});

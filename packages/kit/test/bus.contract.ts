import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { Bus, BusMessage, Subscription } from '../src/events/bus/bus.ts';
import { waitFor } from '@leadforge/testing';

/**
 * Nothing here waits for something that should not happen (a duplicate, a delivery after close) by
 * sleeping: a marker published after it, on the same keys, arrives after it would have (per-key order).
 */
export interface BusContractTiming {
  /** How long to wait for something that should happen. */
  deliveryMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function message(topic: string, key: string, n: number): BusMessage {
  return {
    topic,
    key,
    envelope: { id: uuidv7(), type: 'contract.tested', version: 1, occurred_at: new Date().toISOString(), key, data: { n } },
  };
}

const n = (m: BusMessage) => (m.envelope.data as { n: number }).n;

/** The behaviour every Bus adapter must show; each adapter's test file runs it. */
export function busContract(name: string, makeBus: () => Bus | Promise<Bus>, timing: BusContractTiming): void {
  describe(`${name} bus contract`, () => {
    let bus: Bus;
    let topic: string;
    const group = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

    beforeEach(async () => {
      bus = await makeBus();
      topic = `contract-${randomUUID().slice(0, 8)}`;
    });
    afterEach(() => bus.close());

    it('delivers what is published, envelope and key intact', async () => {
      const received: BusMessage[] = [];
      await bus.subscribe({ group: group('g'), topics: [topic], handler: async (m) => { received.push(m); } });
      const sent = [message(topic, 'k1', 1), message(topic, 'k2', 2)];
      await bus.publish(sent);
      await waitFor(() => received.length === 2, { timeoutMs: timing.deliveryMs, what: 'both messages' });
      const byId = new Map(received.map((m) => [m.envelope.id, m]));
      for (const m of sent) expect(byId.get(m.envelope.id)).toEqual(m);
      expect(await bus.ready()).toBe(true);
    });

    it('keeps the order of messages with the same key', async () => {
      const seen = new Map<string, number[]>();
      await bus.subscribe({
        group: group('order'),
        topics: [topic],
        handler: async (m) => {
          await sleep(Math.random() * 3);
          seen.set(m.key, [...(seen.get(m.key) ?? []), n(m)]);
        },
      });
      const keys = ['a', 'b', 'c'];
      const batches = [0, 1, 2].map((b) => Array.from({ length: 10 }, (_, i) => message(topic, keys[i % 3], b * 10 + i)));
      await Promise.all(batches.map((batch) => bus.publish(batch)));
      await waitFor(() => [...seen.values()].flat().length === 30, { timeoutMs: timing.deliveryMs, what: 'all 30 messages' });
      for (const key of keys) {
        const sequence = seen.get(key)!;
        const expected = batches.flat().filter((m) => m.key === key).map(n);
        expect(sequence).toEqual(expected);
      }
    });

    it('gives each message to one member of a group, spreading keys over the members', async () => {
      const shared = group('pair');
      const byMember: BusMessage[][] = [[], []];
      for (const received of byMember) await bus.subscribe({ group: shared, topics: [topic], handler: async (m) => { received.push(m); } });
      await bus.publish(Array.from({ length: 20 }, (_, i) => message(topic, `key-${i}`, i)));
      // A marker per key after them: once every marker is in, a second delivery of any of the 20 would be too.
      await bus.publish(Array.from({ length: 20 }, (_, i) => message(topic, `key-${i}`, 100 + i)));
      await waitFor(() => byMember.flat().filter((m) => n(m) >= 100).length >= 20, { timeoutMs: timing.deliveryMs, what: 'the 20 markers' });
      const ids = byMember.flat().filter((m) => n(m) < 100).map((m) => m.envelope.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
      expect(byMember[0].length).toBeGreaterThan(0);
      expect(byMember[1].length).toBeGreaterThan(0);
    });

    it('gives every message to every group', async () => {
      const groups: BusMessage[][] = [[], []];
      for (const received of groups) await bus.subscribe({ group: group('each'), topics: [topic], handler: async (m) => { received.push(m); } });
      await bus.publish(Array.from({ length: 5 }, (_, i) => message(topic, `k${i}`, i)));
      await bus.publish(Array.from({ length: 5 }, (_, i) => message(topic, `k${i}`, 100 + i)));
      await waitFor(() => groups.every((g) => g.filter((m) => n(m) >= 100).length >= 5), { timeoutMs: timing.deliveryMs, what: 'the markers in both groups' });
      for (const received of groups) expect(received.map(n).filter((x) => x < 100).sort()).toEqual([0, 1, 2, 3, 4]);
    });

    it('starts a new group at the oldest retained message', async () => {
      await bus.publish([message(topic, 'k', 1), message(topic, 'k', 2)]);
      const received: number[] = [];
      await bus.subscribe({ group: group('late'), topics: [topic], handler: async (m) => { received.push(n(m)); } });
      await waitFor(() => received.length === 2, { timeoutMs: timing.deliveryMs, what: 'the retained messages' });
      expect(received).toEqual([1, 2]);
    });

    it('delivers again a message whose handler threw, before later messages of its key', async () => {
      const attempts: number[] = [];
      let failed = false;
      await bus.subscribe({
        group: group('retry'),
        topics: [topic],
        handler: async (m) => {
          attempts.push(n(m));
          if (n(m) === 1 && !failed) {
            failed = true;
            throw new Error('handler failed once');
          }
        },
      });
      await bus.publish([message(topic, 'same', 1), message(topic, 'same', 2)]);
      await waitFor(() => attempts.includes(2), { timeoutMs: timing.deliveryMs, what: 'the message after the failed one' });
      expect(attempts).toEqual([1, 1, 2]);
    });

    it('moves the keys of a member that closed to the remaining members', async () => {
      const shared = group('leave');
      const byMember: number[][] = [[], []];
      const subscriptions: Subscription[] = [];
      for (const received of byMember) {
        subscriptions.push(await bus.subscribe({ group: shared, topics: [topic], handler: async (m) => { received.push(n(m)); } }));
      }
      await bus.publish(Array.from({ length: 10 }, (_, i) => message(topic, `key-${i}`, i)));
      await waitFor(() => byMember.flat().length >= 10, { timeoutMs: timing.deliveryMs, what: 'the first 10 messages' });
      await subscriptions[0].close();
      const takenByClosed = byMember[0].length;
      await bus.publish(Array.from({ length: 10 }, (_, i) => message(topic, `key-${i}`, 10 + i)));
      await waitFor(() => byMember[1].filter((x) => x >= 10).length === 10, { timeoutMs: timing.deliveryMs, what: 'all later messages at the remaining member' });
      expect(takenByClosed).toBeGreaterThan(0);
      expect(byMember[0].length).toBe(takenByClosed);
    });

    it('stops delivering once a subscription is closed', async () => {
      const closing = group('close');
      const received: number[] = [];
      const subscription = await bus.subscribe({ group: closing, topics: [topic], handler: async (m) => { received.push(n(m)); } });
      await bus.publish([message(topic, 'k', 1)]);
      await waitFor(() => received.length === 1, { timeoutMs: timing.deliveryMs, what: 'the first message' });
      await subscription.close();
      // The group's next member takes the message: the closed subscription has had its chance by then.
      // (The memory bus's publish resolves once the group has handled it, so it is awaited after the join.)
      const published = bus.publish([message(topic, 'k', 2)]);
      const successor: number[] = [];
      await bus.subscribe({ group: closing, topics: [topic], handler: async (m) => { successor.push(n(m)); } });
      await published;
      await waitFor(() => successor.includes(2), { timeoutMs: timing.deliveryMs, what: 'the message at the group\'s next member' });
      expect(received).toEqual([1]);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { HostPacer, Semaphore } from '../src/outbound/hostPacing.ts';

/** Lets every queued microtask and promise callback run, so whoever could get a slot now has it. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tracks whether each promise has resolved yet. */
function watch<T>(promise: Promise<T>) {
  const state = { done: false, value: undefined as T | undefined };
  void promise.then((value) => { state.done = true; state.value = value; });
  return state;
}

describe('the global semaphore', () => {
  it('never admits more holders than its limit, even when someone asks just as a slot is handed on', async () => {
    const gate = new Semaphore(1);
    const releaseFirst = await gate.acquire();
    const second = watch(gate.acquire());
    await settle();
    expect(second.done).toBe(false);

    // The slot goes to the one already waiting; a newcomer in the same tick must wait behind it.
    releaseFirst();
    const third = watch(gate.acquire());
    await settle();
    expect(second.done).toBe(true);
    expect(third.done).toBe(false);

    second.value!();
    await settle();
    expect(third.done).toBe(true);
  });

  it('keeps to its limit under many concurrent holders', async () => {
    const gate = new Semaphore(3);
    let holding = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const release = await gate.acquire();
      holding++;
      most = Math.max(most, holding);
      // Hold for a varying number of turns, so releases and new requests interleave.
      for (let turn = 0; turn < i % 4; turn++) await settle();
      holding--;
      release();
    }));
    expect(most).toBe(3);
  });

  it('drops a waiter whose signal aborts, and passes the slot on to the next one', async () => {
    const gate = new Semaphore(1);
    const release = await gate.acquire();
    const abort = new AbortController();
    const abandoned = gate.acquire(abort.signal);
    const next = watch(gate.acquire());
    abort.abort(new Error('search cancelled'));
    await expect(abandoned).rejects.toThrow('search cancelled');
    release();
    await settle();
    expect(next.done).toBe(true);
    const late = watch(gate.acquire());
    await settle();
    expect(late.done).toBe(false);
  });

  it('bounds requests across hosts in the pacer by the global limit', async () => {
    const pacer = new HostPacer({ globalConcurrency: 1, perHost: 2, delayMs: 0 });
    const releaseA = await pacer.acquire('a.example');
    const b = watch(pacer.acquire('b.example'));
    await settle();
    releaseA();
    const c = watch(pacer.acquire('c.example'));
    await settle();
    expect(b.done).toBe(true);
    expect(c.done).toBe(false);
    b.value!();
    await settle();
    expect(c.done).toBe(true);
    c.value!();
  });
});

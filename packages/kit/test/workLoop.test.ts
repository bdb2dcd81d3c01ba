import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkLoop, type WorkLoopOptions } from '../src/work/workLoop.ts';

const logger = pino({ level: 'silent' });

describe('WorkLoop', () => {
  const loops: WorkLoop[] = [];
  const loopOf = (options: Partial<WorkLoopOptions> & Pick<WorkLoopOptions, 'step'>) => {
    const loop = new WorkLoop({ name: 'test loop', logger, pollMs: 60_000, retry: { baseMs: 10, maxMs: 40 }, ...options });
    loops.push(loop);
    return loop;
  };
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });

  it('works at start, then again when woken rather than at the next poll', async () => {
    let rounds = 0;
    // A round that resolves nothing has nothing more waiting, like one that resolves false.
    const loop = loopOf({ step: async () => { rounds++; } });
    loop.start();
    await expect.poll(() => rounds).toBe(1);
    loop.wake();
    await expect.poll(() => rounds).toBe(2);
  });

  it('goes on at once while a round says more is waiting', async () => {
    let waiting = 5;
    const loop = loopOf({ step: async () => --waiting > 0 });
    loop.start();
    await expect.poll(() => waiting).toBe(0);
  });

  it('polls as a fallback when nothing wakes it', async () => {
    let rounds = 0;
    const loop = loopOf({ pollMs: 10, step: async () => { rounds++; return false; } });
    loop.start();
    await expect.poll(() => rounds).toBeGreaterThanOrEqual(3);
  });

  it('retries a failing round after a pause and carries on once it succeeds', async () => {
    let failuresLeft = 4;
    let succeeded = 0;
    const loop = loopOf({
      step: async () => {
        if (failuresLeft > 0) {
          failuresLeft--;
          throw new Error('database away');
        }
        succeeded++;
        return false;
      },
    });
    loop.start();
    await expect.poll(() => succeeded).toBe(1);
    expect(failuresLeft).toBe(0);
  });

  it('lets stop wait for the round under way, and works no more after it', async () => {
    let release!: () => void;
    let rounds = 0;
    let finished = false;
    const loop = loopOf({
      pollMs: 5,
      step: async () => {
        rounds++;
        if (rounds === 1) await new Promise<void>((resolve) => { release = resolve; });
        finished = true;
        return false;
      },
    });
    loop.start();
    await expect.poll(() => rounds).toBe(1);
    const stopped = loop.stop();
    setImmediate(() => release());
    await stopped;
    expect(finished).toBe(true);
    const roundsAtStop = rounds;
    loop.wake();
    await new Promise((resolve) => setImmediate(resolve));
    expect(rounds).toBe(roundsAtStop);
  });
});

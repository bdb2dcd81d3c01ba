import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from '../src/webhooks/retrySchedule.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('webhook retry schedule', () => {
  it('retries after 30 s, then doubles up to every 4 hours, for 24 hours, the last attempt at the 24-hour mark', () => {
    const created = new Date('2026-11-24T00:00:00Z');
    const giveUpAt = new Date(created.getTime() + 24 * HOUR);
    const attempts = [created];
    for (let next = nextAttemptAt(1, created, giveUpAt, 30_000); next; next = nextAttemptAt(attempts.length, attempts.at(-1)!, giveUpAt, 30_000)) {
      attempts.push(next);
    }
    const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i].getTime());
    expect(gaps.slice(0, 4)).toEqual([30_000, MINUTE, 2 * MINUTE, 4 * MINUTE]);
    expect(Math.max(...gaps)).toBe(4 * HOUR);
    expect(attempts.at(-1)!.getTime()).toBe(giveUpAt.getTime());
    expect(attempts).toHaveLength(15);
  });

  it('gives up once the window has passed', () => {
    const giveUpAt = new Date('2026-11-25T00:00:00Z');
    expect(nextAttemptAt(20, giveUpAt, giveUpAt, 30_000)).toBeUndefined();
    expect(nextAttemptAt(20, new Date(giveUpAt.getTime() + 1), giveUpAt, 30_000)).toBeUndefined();
  });
});

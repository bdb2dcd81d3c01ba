import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';

export interface WaitForOptions<T> {
  /** Whether the value read is the one awaited; without it, any truthy value is. */
  until?: (value: T) => boolean;
  /** How long to keep reading before failing; generous, since it only bounds a test that fails. */
  timeoutMs?: number;
  /** Pause between reads. */
  intervalMs?: number;
  /** What is awaited, in words: the failure message starts with it. */
  what?: string;
}

/** The outcome of the latest read, kept for the timeout message. */
type LastRead<T> = { kind: 'none' } | { kind: 'value'; value: T } | { kind: 'error'; error: unknown };

const describe = (last: LastRead<unknown>): string => {
  const shown = (thing: unknown) => {
    const text = inspect(thing, { depth: 4, breakLength: Infinity });
    return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
  };
  if (last.kind === 'none') return 'nothing was read (the first read had not finished)';
  if (last.kind === 'error') return `the last read threw ${last.error instanceof Error ? `${last.error.name}: ${last.error.message}` : shown(last.error)}`;
  return `the last value read was ${shown(last.value)}`;
};

/**
 * Reads `read` until its value is the one awaited and answers that value. A read that throws counts
 * as "not yet" (a server still starting refuses connections). On timeout it fails with what was
 * awaited and the last value (or error) seen, so a failing test says what it was waiting for.
 *
 * Tests wait for conditions with this instead of sleeping a fixed time: a sleep is either too short on
 * a busy machine or wasted time on an idle one.
 */
export async function waitFor<T>(read: () => T | Promise<T>, options: WaitForOptions<T> = {}): Promise<T> {
  const { until = (value: T) => Boolean(value), timeoutMs = 10_000, intervalMs = 50, what = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let last: LastRead<T> = { kind: 'none' };
  // A read that hangs (a frozen server) must not outlast the deadline, or the message is lost.
  const timedOut = Symbol('timed out');
  const stopWaiting = new AbortController();
  const giveUp = sleep(timeoutMs, timedOut, { signal: stopWaiting.signal }).catch(() => undefined);
  try {
    for (;;) {
      try {
        const value = await Promise.race([read(), giveUp]);
        if (value === timedOut) break;
        if (until(value as T)) return value as T;
        last = { kind: 'value', value: value as T };
      } catch (error) {
        last = { kind: 'error', error };
      }
      if (Date.now() >= deadline) break;
      await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
    }
  } finally {
    stopWaiting.abort();
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${describe(last)}`);
}

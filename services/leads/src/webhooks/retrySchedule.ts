import { backoffCeiling } from '@leadforge/kit/work';

const MAX_DELAY_MS = 4 * 3600_000;

/**
 * When a failed delivery is tried again: `baseMs` after the first attempt, twice as long after each
 * next one (at most 4 hours), and once more exactly when retrying stops (`giveUpAt`), so it is
 * retried for the whole window. Undefined once the window is over: the delivery has failed.
 * The schedule is published to receivers (docs/public-api.md), so it has no jitter: deliveries to
 * one endpoint are spread by their own creation times.
 */
export function nextAttemptAt(attempts: number, now: Date, giveUpAt: Date, baseMs: number): Date | undefined {
  if (now.getTime() >= giveUpAt.getTime()) return undefined;
  const delay = backoffCeiling(attempts, { baseMs, maxMs: MAX_DELAY_MS });
  return new Date(Math.min(now.getTime() + delay, giveUpAt.getTime()));
}

export interface BackoffOptions {
  /** The ceiling of the first retry's wait. */
  baseMs: number;
  /** No wait is ever longer than this, however many attempts failed. */
  maxMs: number;
  /** A number in [0, 1); tests pass a fixed one. */
  random?: () => number;
}

/**
 * How long to wait before retry number `attempt` (1 = the first retry): exponential backoff with full
 * jitter, a whole number of milliseconds drawn evenly from [0, min(maxMs, baseMs * 2^(attempt-1))].
 * The jitter is what keeps many processes that failed together (a broker or database outage) from
 * retrying in lockstep once it is back.
 */
export function backoffWithJitter(attempt: number, { baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  return Math.round(random() * backoffCeiling(attempt, { baseMs, maxMs }));
}

/** The longest wait `backoffWithJitter` can return for this attempt. */
export function backoffCeiling(attempt: number, { baseMs, maxMs }: Pick<BackoffOptions, 'baseMs' | 'maxMs'>): number {
  // Capping the exponent keeps 2 ** n finite for absurd attempt counts.
  const exponent = Math.min(Math.max(0, Math.floor(attempt) - 1), 52);
  return Math.min(maxMs, baseMs * 2 ** exponent);
}

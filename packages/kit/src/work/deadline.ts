/**
 * Whether `work` settles (resolves or rejects) within `ms`. The work is not cancelled either way:
 * a shutdown step that overruns is reported and the next step goes on, as an orchestrator's grace
 * period would have it. A rejection stays with the caller (`await work` to see it).
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(resolve, Math.max(0, ms), false); });
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface StopStep {
  /** Named in the log line when it overruns. */
  name: string;
  stop: () => Promise<unknown> | void;
  /** What to do when it overruns (close connections still open, say); the step is then left to end on its own. */
  force?: () => void;
  /** What the step is still waiting for, logged when it overruns (the requests still open, say). */
  pending?: () => unknown;
}

/** Once the deadline has passed, each remaining step still gets this long. */
const AFTER_DEADLINE_MS = 1_000;

/**
 * Runs the steps of a shutdown in order, together within `ms`. A step still under way at the
 * deadline is logged with its name, forced when it can be, and left; the next step starts, so one
 * stuck request or job never holds the rest of the shutdown (or a test's teardown) forever. Every
 * step runs even when an earlier one failed; the first failure is thrown at the end.
 */
export async function stopInOrder(steps: StopStep[], options: { ms: number; log: { error(fields: object, message: string): void }; what: string }): Promise<void> {
  const deadline = Date.now() + options.ms;
  let failure: { error: unknown } | undefined;
  for (const step of steps) {
    const running = Promise.resolve().then(step.stop);
    const allowedMs = Math.max(AFTER_DEADLINE_MS, deadline - Date.now());
    if (await settlesWithin(running, allowedMs)) {
      await running.catch((error: unknown) => { failure ??= { error }; });
      continue;
    }
    options.log.error({ step: step.name, waitedMs: allowedMs, ...(step.pending ? { pending: step.pending() } : {}) }, `stopping ${options.what}: ${step.name} still under way at the shutdown deadline; going on without it`);
    step.force?.();
  }
  if (failure) throw failure.error;
}

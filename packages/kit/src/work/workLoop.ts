import type { Logger } from 'pino';
import { backoffWithJitter, type BackoffOptions } from './backoff.ts';
import { settlesWithin } from './deadline.ts';

export interface WorkLoopOptions {
  /** Named in log lines. */
  name: string;
  logger: Logger;
  /** One round of work; resolves true when more is waiting already (the loop goes on at once), else false or nothing. */
  step: () => Promise<boolean | void>;
  /** The fallback when nothing wakes the loop: look for work this often. */
  pollMs: number;
  /** The pause after failed rounds, growing with each one in a row (with jitter). */
  retry: Pick<BackoffOptions, 'baseMs' | 'maxMs'>;
  /** How long `stop` waits for a round under way (shutdown must fit the orchestrator's grace period). */
  stopWaitMs?: number;
}

/**
 * The in-memory half of every background worker: runs `step` again and again, at once when woken
 * (a notify), after `pollMs` otherwise, after a jittered growing pause when it failed, and stops
 * gracefully. Durable state (claims, attempts, parking) is the caller's: see LeasedQueue.
 */
export class WorkLoop {
  private running = false;
  private loop?: Promise<void>;
  private stepping?: Promise<boolean>;
  private woken = false;
  private endPause?: () => void;
  private wakePause?: () => void;
  private readonly wakeTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: WorkLoopOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Work soon rather than at the next poll. */
  readonly wake = (): void => {
    this.woken = true;
    this.wakePause?.();
  };

  /** Wakes the loop once `ms` have passed: when a retry falls due, rather than at some later poll. */
  wakeIn(ms: number): void {
    if (!this.running) return;
    const timer = setTimeout(() => {
      this.wakeTimers.delete(timer);
      this.wake();
    }, Math.max(0, ms));
    timer.unref();
    this.wakeTimers.add(timer);
  }

  /** One round, shared with the loop's own round when one is under way. */
  runOnce(): Promise<boolean> {
    this.stepping ??= this.options.step().then((more) => more === true).finally(() => { this.stepping = undefined; });
    return this.stepping;
  }

  /** Ends the loop and waits (at most stopWaitMs) for a round under way. */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.wakeTimers) clearTimeout(timer);
    this.wakeTimers.clear();
    this.endPause?.();
    await settlesWithin(Promise.all([this.loop, this.stepping?.catch(() => undefined)]), this.options.stopWaitMs ?? 5_000);
  }

  private async run(): Promise<void> {
    const { logger, name, pollMs, retry } = this.options;
    let failures = 0;
    while (this.running) {
      this.woken = false;
      let delay = pollMs;
      let wakeable = true;
      try {
        if (await this.runOnce()) delay = 0;
        failures = 0;
      } catch (error) {
        failures++;
        // Jittered, so that workers which failed together (an outage) do not retry in lockstep.
        delay = Math.max(1, backoffWithJitter(failures, retry));
        wakeable = false;
        logger.warn({ err: error, failures, retryInMs: delay }, `${name} failed; will retry`);
      }
      if (wakeable && this.woken) delay = 0;
      if (delay > 0 && this.running) await this.pause(delay, wakeable);
    }
  }

  private pause(ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.endPause = this.wakePause = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.endPause = end;
      this.wakePause = wakeable ? end : undefined;
    });
  }
}

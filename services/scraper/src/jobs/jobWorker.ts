import type { Logger } from 'pino';
import { inTraceOf, type Db } from '@leadforge/kit';
import type { ScraperConfig } from '../config.ts';
import { claimJob, releaseLease, renewLease, type Claimant, type JobRow } from './jobStore.ts';
import type { StopReason } from './searchRun.ts';

export type RunJob = (job: JobRow, signal: AbortSignal) => Promise<StopReason>;

interface ActiveJob {
  job: JobRow;
  controller: AbortController;
  done: Promise<unknown>;
  heartbeat: NodeJS.Timeout;
}

/**
 * One replica's share of the work: claims open jobs from the shared database (up to
 * `perReplica` at once), keeps their leases alive while they run, gives a job up when its lease
 * is lost or a cancellation is seen, and hands its jobs back at shutdown. After a crash, the
 * replica's next process takes back the jobs the dead one held at once (see `claimJob`).
 */
export class JobWorker {
  private readonly active = new Map<string, ActiveJob>();
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;

  readonly owner: string;

  constructor(
    private readonly db: Db,
    private readonly claimant: Claimant,
    private readonly jobs: ScraperConfig['jobs'],
    private readonly runJob: RunJob,
    private readonly log: Logger,
  ) {
    this.owner = claimant.owner;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.claimLoop();
  }

  /** A job was recorded: look for it now rather than at the next poll. */
  readonly wake = (): void => {
    this.woken = true;
    this.wakeUp?.();
  };

  /** Stops claiming, stops the running searches (their results so far are committed) and releases their leases. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    for (const active of this.active.values()) active.controller.abort('shutdown');
    await Promise.allSettled([...this.active.values()].map((active) => active.done));
  }

  /**
   * Stops at once without handing the jobs back, as a crash would: their leases run out and
   * another replica takes them over. For a process that must die now (and for takeover tests).
   */
  abandon(): void {
    this.running = false;
    this.wakeUp?.();
    for (const active of this.active.values()) {
      clearInterval(active.heartbeat);
      active.controller.abort('lease_lost');
    }
  }

  /** Searches this worker is running now. */
  get runningSearches(): string[] {
    return [...this.active.keys()];
  }

  private async claimLoop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let claimed = false;
      if (this.active.size < this.jobs.perReplica) {
        try {
          const job = await claimJob(this.db, this.claimant, this.jobs.leaseMs);
          if (job) {
            claimed = true;
            this.begin(job);
          }
        } catch (error) {
          this.log.warn({ err: error }, 'could not claim a search job; will retry');
        }
      }
      if (!this.running || (claimed && this.active.size < this.jobs.perReplica) || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.jobs.pollMs);
        function done() { clearTimeout(timer); resolve(); }
        this.wakeUp = done;
      });
      this.wakeUp = undefined;
    }
  }

  private begin(job: JobRow): void {
    const controller = new AbortController();
    const heartbeat = setInterval(() => void this.renew(job.search_id, controller), Math.min(this.jobs.leaseMs / 3, 2_000));
    const done = inTraceOf(job.traceparent ?? undefined, 'search run', { 'leadforge.search_id': job.search_id }, () => this.runJob(job, controller.signal))
      .catch((error) => this.log.error({ err: error, searchId: job.search_id }, 'search run failed; another attempt will follow when its lease expires'))
      .finally(async () => {
        clearInterval(heartbeat);
        this.active.delete(job.search_id);
        if (controller.signal.reason === 'shutdown') await releaseLease(this.db, job.search_id, this.owner).catch(() => undefined);
        this.wake();
      });
    this.active.set(job.search_id, { job, controller, done, heartbeat });
  }

  private async renew(searchId: string, controller: AbortController): Promise<void> {
    if (controller.signal.aborted) return;
    try {
      const lease = await renewLease(this.db, searchId, this.owner, this.jobs.leaseMs);
      if (!lease) controller.abort('lease_lost');
      else if (lease.cancelRequested) controller.abort('cancelled');
    } catch (error) {
      this.log.warn({ err: error, searchId }, 'could not renew a search lease');
    }
  }
}

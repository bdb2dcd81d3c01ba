import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { countAttempt, measureQueue, settlesWithin, WorkLoop } from '@leadforge/kit/work';
import { inTraceOf } from '@leadforge/kit/tracing';
import type { ScraperConfig } from '../config.ts';
import { claimJob, measureJobQueue, releaseLease, renewLease, type Claimant, type JobRow } from './jobStore.ts';
import type { StopReason } from './searchRun.ts';

export type RunJob = (job: JobRow, signal: AbortSignal) => Promise<StopReason>;

/**
 * How long stop waits for the runs it aborted. A run that ignores its abort must not hold the whole
 * process's shutdown: past this, it is left to its lease, as after a crash.
 */
const STOP_GRACE_MS = 10_000;

/** The jobs' name in the kit's per-queue metrics (`leadforge_work_queue_*{queue="jobs"}`). */
export const JOB_QUEUE = 'jobs';

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
 * Claiming runs on the kit's WorkLoop: woken when a job is recorded or one of its runs ends,
 * polling as a fallback, a jittered growing pause while the database fails. A search runs for
 * minutes, so unlike a LeasedQueue row each job has a run of its own and a lease renewed while it runs.
 */
export class JobWorker {
  private readonly active = new Map<string, ActiveJob>();
  private readonly loop: WorkLoop;
  private stopMeasuring?: () => void;

  readonly owner: string;

  constructor(
    private readonly db: Db,
    private readonly claimant: Claimant,
    private readonly jobs: ScraperConfig['jobs'],
    private readonly runJob: RunJob,
    private readonly log: Logger,
  ) {
    this.owner = claimant.owner;
    this.loop = new WorkLoop({
      name: 'scraper job worker',
      logger: log,
      step: () => this.claimWhileRoom(),
      pollMs: jobs.pollMs,
      retry: { baseMs: jobs.pollMs, maxMs: Math.max(jobs.pollMs, 30_000) },
    });
  }

  start(): void {
    this.stopMeasuring ??= measureQueue('scraper', JOB_QUEUE, () => measureJobQueue(this.db));
    this.loop.start();
  }

  /** A job was recorded or a run ended: look for a job now rather than at the next poll. */
  readonly wake = (): void => this.loop.wake();

  /** Stops claiming, stops the running searches (their results so far are committed) and releases their leases. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.stopMeasuring?.();
    this.stopMeasuring = undefined;
    for (const active of this.active.values()) active.controller.abort('shutdown');
    if (await settlesWithin(Promise.allSettled([...this.active.values()].map((active) => active.done)), STOP_GRACE_MS)) return;
    this.log.error({ searchIds: this.runningSearches }, `searches still running ${STOP_GRACE_MS / 1000} s after shutdown aborted them: left to their leases`);
    for (const active of this.active.values()) clearInterval(active.heartbeat);
  }

  /**
   * Stops at once without handing the jobs back, as a crash would: their leases run out and
   * another replica takes them over. For a process that must die now (and for takeover tests).
   */
  abandon(): void {
    void this.loop.stop();
    this.stopMeasuring?.();
    this.stopMeasuring = undefined;
    for (const active of this.active.values()) {
      clearInterval(active.heartbeat);
      active.controller.abort('lease_lost');
    }
  }

  /** Searches this worker is running now. */
  get runningSearches(): string[] {
    return [...this.active.keys()];
  }

  /** Claims jobs until this replica runs `perReplica` of them or none is free; the runs go on in the background. */
  private async claimWhileRoom(): Promise<boolean> {
    while (this.loop.isRunning && this.active.size < this.jobs.perReplica) {
      const job = await claimJob(this.db, this.claimant, this.jobs.leaseMs);
      if (!job) break;
      // Stopped while the claim was on its way: hand it straight back rather than start a run nobody stops.
      if (!this.loop.isRunning) await releaseLease(this.db, job.search_id, this.owner);
      else this.begin(job);
    }
    return false;
  }

  private begin(job: JobRow): void {
    const controller = new AbortController();
    const heartbeat = setInterval(() => void this.renew(job.search_id, controller), Math.min(this.jobs.leaseMs / 3, 2_000));
    const done = inTraceOf(job.traceparent ?? undefined, 'search run', { 'leadforge.search_id': job.search_id }, () => this.runJob(job, controller.signal))
      .then((reason) => countAttempt('scraper', JOB_QUEUE, reason === 'lease_lost' || reason === 'shutdown' ? 'retried' : 'done'), (error) => {
        countAttempt('scraper', JOB_QUEUE, 'retried');
        this.log.error({ err: error, searchId: job.search_id }, 'search run failed; another attempt will follow when its lease expires');
      })
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

import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { LeasedQueue, type Lease, type WorkOutcome } from '@leadforge/kit/work';
import { inTraceOf } from '@leadforge/kit/tracing';
import type { ScraperConfig } from '../config.ts';
import { finishedJob, SEARCH_JOBS, type Claimant, type JobRow } from './jobStore.ts';
import type { StopReason } from './searchRun.ts';

/** One search's run under its job's lease: it settles the lease itself when the search finishes. */
export type RunJob = (lease: Lease<JobRow>) => Promise<StopReason>;

/**
 * How long stop waits for the runs it told to stop. A run that ignores it must not hold the whole
 * process's shutdown: past this, it is left to its lease, as after a crash.
 */
const STOP_GRACE_MS = 10_000;

/**
 * One replica's share of the searches, on the kit's job queue: it claims open jobs from the shared
 * database (up to `perReplica` at once), keeps their leases alive with a heartbeat while they run
 * (a search runs for minutes), stops a run whose lease was lost or whose search was cancelled, and
 * hands its jobs back at shutdown. After a crash, the replica's next process takes back the jobs
 * the dead one held at once; any other replica takes them once their leases run out.
 */
export class JobWorker {
  private readonly queue: LeasedQueue<JobRow>;

  constructor(db: Db, claimant: Claimant, jobs: ScraperConfig['jobs'], runJob: RunJob, log: Logger) {
    this.queue = new LeasedQueue<JobRow>({
      ...SEARCH_JOBS,
      db,
      logger: log,
      service: 'scraper',
      owner: claimant.owner,
      replica: claimant.replica,
      leaseMs: jobs.leaseMs,
      heartbeatMs: Math.min(jobs.leaseMs / 3, 2_000),
      pollMs: jobs.pollMs,
      parallel: jobs.perReplica,
      // Unused: a run that fails asks for its next attempt when its lease would have ended.
      retry: { baseMs: jobs.leaseMs, maxMs: jobs.leaseMs },
      stopWaitMs: STOP_GRACE_MS,
      claimed: { state: 'running', updated_at: db.fn.now() },
      interrupt: (job) => (job.cancel_requested ? 'cancelled' : undefined),
      async work(job, lease): Promise<WorkOutcome> {
        try {
          const reason = await inTraceOf(job.traceparent ?? undefined, 'search run', { 'leadforge.search_id': job.search_id }, () => runJob(lease));
          // A finished search has settled its lease; a run that lost it or was stopped hands the job back.
          return reason === 'lease_lost' || reason === 'shutdown' ? { kind: 'release' } : { kind: 'done' };
        } catch (error) {
          log.error({ err: error, searchId: job.search_id }, 'search run failed; another attempt will follow when its lease would have ended');
          return { kind: 'retry', error: (error as Error).message, at: new Date(Date.now() + jobs.leaseMs) };
        }
      },
      done: () => finishedJob(db),
      park: () => ({}),
    });
  }

  start(): void {
    this.queue.start();
  }

  /** A job was recorded: look for one now rather than at the next poll. */
  readonly wake = (): void => this.queue.wake();

  /** Stops claiming, stops the running searches (their results so far are committed) and hands their jobs back. */
  stop(): Promise<void> {
    return this.queue.stop();
  }

  /**
   * Stops at once without handing the jobs back, as a crash would: their leases run out and
   * another replica takes them over. For a process that must die now (and for takeover tests).
   */
  abandon(): void {
    this.queue.abandon();
  }

  /** Claims one job for a run driven by hand (a test): nothing renews its lease. */
  claim(): Promise<Lease<JobRow> | undefined> {
    return this.queue.claim();
  }

  /** Searches this worker is running now. */
  get runningSearches(): string[] {
    return this.queue.leasedKeys as string[];
  }
}

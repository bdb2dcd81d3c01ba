import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { LeasedQueue } from '@leadforge/kit/work';
import { HttpError } from '@leadforge/kit/http';
import type { MonitorsConfig } from '../config.ts';
import { attemptAtFor, nextDueAfter, type MonitorRow } from './monitorRecord.ts';
import { startMonitorRun, type RunStartDeps } from './monitorRunStart.ts';

/** A run that could not start because the user already has their searches running waits this long. */
const BUSY_RETRY_MS = 60_000;

/**
 * Runs each due monitor once per due time, on any number of replicas: the monitors table is a kit
 * LeasedQueue (a replica claims a due monitor with FOR UPDATE SKIP LOCKED and a lease; one that dies
 * mid-run has it taken over when the lease ends), and the run row unique per due time makes a
 * repeat find the run already started. A paused monitor is never claimed. Once its run has started
 * the monitor's next due time is set, and its next attempt a random moment of the spread after it.
 */
export function monitorScheduler(options: { db: Db; log: Logger; config: MonitorsConfig; run: RunStartDeps }) {
  const { db, log, config, run } = options;
  // The next due time of each monitor worked on, from the monitor as it stood when its run was decided
  // (a frequency changed meanwhile counts), for `done` to record.
  const nextDue = new Map<string, Date>();
  return new LeasedQueue<MonitorRow>({
    db,
    logger: log,
    service: 'leads',
    queue: 'monitors',
    table: { table: 'monitors', pending: "status = 'active'", parked: 'false', order: 'next_attempt_at', lastErrorColumn: 'last_error' },
    leaseMs: config.leaseMs,
    pollMs: config.tickMs,
    parallel: config.parallel,
    retry: { baseMs: 5_000, maxMs: 15 * 60_000 },
    async work(monitor) {
      try {
        const { monitor: current } = await startMonitorRun(run, monitor, new Date(monitor.next_run_at), 'schedule');
        const latest = current ?? monitor;
        nextDue.set(monitor.id, nextDueAfter(new Date(latest.next_run_at), latest.frequency, new Date()));
        return { kind: 'done' };
      } catch (err) {
        // The user's searches are all running (the per-user limit): this run waits its turn.
        if (err instanceof HttpError && err.statusCode === 429) return { kind: 'retry', error: err.message, at: new Date(Date.now() + BUSY_RETRY_MS) };
        throw err;
      }
    },
    done(monitor) {
      const next = nextDue.get(monitor.id) ?? nextDueAfter(new Date(monitor.next_run_at), monitor.frequency, new Date());
      nextDue.delete(monitor.id);
      return { next_run_at: next, next_attempt_at: attemptAtFor(next, config.spreadMs), attempts: 0 };
    },
    park: () => ({}),
  });
}

export type MonitorScheduler = ReturnType<typeof monitorScheduler>;

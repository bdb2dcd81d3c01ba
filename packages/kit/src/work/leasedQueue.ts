import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { backoffWithJitter, type BackoffOptions } from './backoff.ts';
import { countAttempt, measureQueue } from './queueMetrics.ts';
import { WorkLoop } from './workLoop.ts';

/**
 * The rows of one queue. The table has the columns `id`, `attempts` (integer),
 * `next_attempt_at` (timestamptz; a claimed row's lease ends then) and `created_at`.
 */
export interface QueueTable {
  table: string;
  /** SQL condition: rows still to work on. */
  pending: string;
  /** SQL condition: rows given up on. */
  parked: string;
  /** SQL ordering of due rows when claiming. */
  order: string;
  /** A column that keeps the last failure's text, when the table has one. */
  lastErrorColumn?: string;
}

/** What became of one attempt. A `work` that throws means `retry` with the error's message. */
export type WorkOutcome =
  | { kind: 'done' }
  /** Try again at `at`, or after a jittered growing pause. */
  | { kind: 'retry'; error: string; at?: Date }
  /** Never try again by itself: kept visible, replayable with `replayParked`. */
  | { kind: 'park'; error: string };

export interface LeasedQueueOptions<Row extends { id: unknown; attempts: number }> {
  db: Db;
  logger: Logger;
  service: string;
  /** The queue's name in metrics and logs. */
  queue: string;
  table: QueueTable;
  /** How long a claimed row is left to this worker; must exceed the longest attempt. */
  leaseMs: number;
  pollMs: number;
  /** Rows worked on at once by one worker. */
  parallel?: number;
  /** The pause before retrying a row, growing with its attempts (with jitter). */
  retry: Pick<BackoffOptions, 'baseMs' | 'maxMs'>;
  /** A row still failing after this many attempts is parked; none: retried until `work` parks it. */
  maxAttempts?: number;
  /** One attempt at a claimed row (`attempts` already counts it). */
  work(row: Row): Promise<WorkOutcome>;
  /** The columns that mark a row done. */
  done(row: Row): Record<string, unknown>;
  /** The columns that mark a row parked. */
  park(row: Row): Record<string, unknown>;
  /** The columns that make a parked row pending again (a replay); none: parked rows are final. */
  unpark?: Record<string, unknown>;
  /** Further writes in the transaction that records an outcome (an attempts log); skipped when the row is gone. */
  recorded?(trx: Knex.Transaction, row: Row, outcome: WorkOutcome): Promise<void>;
}

/**
 * A durable queue of rows worked on by any number of workers (replicas): each claims a due row
 * with `FOR UPDATE SKIP LOCKED` and leases it by pushing its next attempt past the lease, so other
 * workers skip it meanwhile and a worker that dies mid-attempt has it retried once the lease ends.
 * Every outcome is recorded: done, retried after a jittered growing pause, or parked after
 * `maxAttempts` (visible, replayable). Woken by `wake` (a notify), polling as a fallback; measured
 * per queue (depth, age of the oldest, attempts by outcome, parked). Works on PGlite and PostgreSQL.
 */
export class LeasedQueue<Row extends { id: unknown; attempts: number }> {
  private readonly loop: WorkLoop;
  private stopMeasuring?: () => void;

  constructor(private readonly options: LeasedQueueOptions<Row>) {
    this.loop = new WorkLoop({
      name: `${options.service} ${options.queue} queue`,
      logger: options.logger,
      step: () => this.drain(),
      pollMs: options.pollMs,
      retry: { baseMs: options.pollMs, maxMs: Math.max(options.pollMs, 30_000) },
    });
  }

  start(): void {
    this.stopMeasuring ??= measureQueue(this.options.service, this.options.queue, () => this.measure());
    this.loop.start();
  }

  /** Work on what is due now instead of at the next poll (after rows were queued). */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.stopMeasuring?.();
    this.stopMeasuring = undefined;
  }

  /** Works on due rows until none is left; resolves false (nothing more waits now). */
  drainOnce(): Promise<boolean> {
    return this.loop.runOnce();
  }

  /** Makes parked rows (all, or those with these ids) due again with their attempts reset; returns how many. */
  async replayParked(ids?: Row['id'][]): Promise<number> {
    const { db, table, unpark } = this.options;
    if (!unpark) throw new Error(`${this.options.queue}: parked rows are final here and cannot be replayed`);
    let query = db(table.table).whereRaw(table.parked);
    if (ids) query = query.whereIn('id', ids as never[]);
    return query.update({ ...unpark, attempts: 0, next_attempt_at: db.fn.now() });
  }

  private async drain(): Promise<boolean> {
    // The other workers start only once a row was due: a poll that finds nothing is one query.
    const first = await this.claim();
    if (!first) return false;
    const worker = async (claimed?: Row) => {
      for (let row = claimed ?? await this.claim(); row && this.loop.isRunning; row = await this.claim()) await this.attempt(row);
    };
    await Promise.all([worker(first), ...Array.from({ length: (this.options.parallel ?? 1) - 1 }, () => worker())]);
    return false;
  }

  private async claim(): Promise<Row | undefined> {
    const { db, table, leaseMs } = this.options;
    const result = await db.raw(`
      UPDATE ${table.table} SET attempts = attempts + 1, next_attempt_at = now() + ?::double precision * interval '1 millisecond'
      WHERE id = (
        SELECT id FROM ${table.table}
        WHERE (${table.pending}) AND next_attempt_at <= now()
        ORDER BY ${table.order} LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`, [leaseMs]);
    return result.rows[0];
  }

  private async attempt(row: Row): Promise<void> {
    const { logger, service, queue, maxAttempts } = this.options;
    let outcome: WorkOutcome;
    try {
      outcome = await this.options.work(row);
    } catch (error) {
      outcome = { kind: 'retry', error: (error as Error).message };
    }
    if (outcome.kind === 'retry' && maxAttempts !== undefined && row.attempts >= maxAttempts) {
      outcome = { kind: 'park', error: outcome.error };
    }
    const delayMs = outcome.kind === 'retry'
      ? (outcome.at ? outcome.at.getTime() - Date.now() : backoffWithJitter(row.attempts, this.options.retry))
      : 0;
    await this.record(row, outcome, delayMs);
    countAttempt(service, queue, outcome.kind === 'done' ? 'done' : outcome.kind === 'retry' ? 'retried' : 'parked');
    if (outcome.kind === 'retry') {
      this.loop.wakeIn(delayMs + 50);
      logger.info({ queue, id: row.id, attempt: row.attempts, err: outcome.error, retryInMs: delayMs }, `${queue}: attempt failed; it will be retried`);
    } else if (outcome.kind === 'park') {
      logger.error({ queue, id: row.id, attempts: row.attempts, err: outcome.error }, `${queue}: given up and parked`);
    }
  }

  private async record(row: Row, outcome: WorkOutcome, delayMs: number): Promise<void> {
    const { db, table } = this.options;
    const lastError = table.lastErrorColumn ? { [table.lastErrorColumn]: outcome.kind === 'done' ? null : outcome.error.slice(0, 500) } : {};
    const columns = outcome.kind === 'done' ? this.options.done(row)
      : outcome.kind === 'park' ? this.options.park(row)
        : { next_attempt_at: db.raw(`now() + ?::double precision * interval '1 millisecond'`, [Math.max(0, delayMs)]) };
    await db.transaction(async (trx) => {
      // The row may have been deleted meanwhile (with what owned it): then there is nothing to record.
      const updated = await trx(table.table).where({ id: row.id }).update({ ...columns, ...lastError }).returning('id');
      if (updated.length) await this.options.recorded?.(trx, row, outcome);
    });
  }

  private async measure() {
    const { db, table } = this.options;
    const result = await db.raw(`
      SELECT count(*) FILTER (WHERE ${table.pending}) AS depth,
             coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE ${table.pending})), 0) AS oldest,
             count(*) FILTER (WHERE ${table.parked}) AS parked
      FROM ${table.table}`);
    const [{ depth, oldest, parked }] = result.rows;
    return { depth: Number(depth), oldestAgeSeconds: Number(oldest), parked: Number(parked) };
  }
}

import crypto from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { backoffWithJitter, type BackoffOptions } from './backoff.ts';
import { settlesWithin } from './deadline.ts';
import { countAttempt, measureQueue } from './queueMetrics.ts';
import { WorkLoop } from './workLoop.ts';

/**
 * The rows of one queue. Besides its own, the table has the columns `attempts` (integer),
 * `lease_owner` (text: the claim holding the row, NULL when none does), `created_at` and a due
 * column (`next_attempt_at` unless named: when the row is due, and while it is claimed when its
 * lease ends; NULL counts as due).
 */
export interface QueueTable {
  table: string;
  /** The key column; `id` unless named. */
  key?: string;
  /** SQL condition: rows still to work on. */
  pending: string;
  /** SQL condition: rows given up on. */
  parked: string;
  /** SQL ordering of due rows when claiming. */
  order: string;
  /** A column that keeps the last failure's text, when the table has one. */
  lastErrorColumn?: string;
  /** The due column when it is not `next_attempt_at`. */
  dueColumn?: string;
  /**
   * A column naming the replica that claimed the row. With the queue's `replica`, a restarted replica
   * takes back at once the rows its dead process held (a replica runs one process at a time),
   * rather than after their leases.
   */
  replicaColumn?: string;
}

/** A queue as its table declares it: enough to list and replay its parked rows without running it. */
export interface QueueDeclaration {
  /** The queue's name in metrics, logs and the parked-work view. */
  queue: string;
  table: QueueTable;
  /** The columns that make a parked row pending again (a replay); none: parked rows are final, kept to be read. */
  unpark?: Record<string, unknown>;
}

/** What became of one attempt. A `work` that throws means `retry` with the error's message. */
export type WorkOutcome =
  | { kind: 'done' }
  /** Try again at `at`, or after a jittered growing pause. */
  | { kind: 'retry'; error: string; at?: Date }
  /** Never try again by itself: kept visible, replayable when the queue declares `unpark`. */
  | { kind: 'park'; error: string }
  /** Hand the row back untried (a shutdown): another worker may claim it at once. */
  | { kind: 'release' };

/** One claim of one row: the holder's token, a signal, and the fence for the work's own commits. */
export interface Lease<Row> {
  readonly row: Row;
  /** This claim's `lease_owner`: unique to it, so a stale claim of the same process is fenced off too. */
  readonly token: string;
  /** Aborted when the lease is lost (another worker claimed the row), at shutdown, or by `interrupt`; its reason says which. */
  readonly signal: AbortSignal;
  /** The row, locked for this transaction, if this claim still holds it: every commit of a long work checks it first. */
  hold(trx: Knex.Transaction): Promise<Row | undefined>;
  /**
   * Records the outcome in the work's own transaction (with `columns` besides the outcome's), so the
   * work's last writes and its outcome commit together; false when the claim no longer holds the row.
   * The queue then records nothing more for this attempt.
   */
  settle(trx: Knex.Transaction, outcome: WorkOutcome, columns?: Record<string, unknown>): Promise<boolean>;
}

export interface LeasedQueueOptions<Row extends { attempts: number }> extends QueueDeclaration {
  db: Db;
  logger: Logger;
  service: string;
  /** How long a claimed row is left to this worker without a heartbeat; must exceed the longest attempt (or the heartbeat). */
  leaseMs: number;
  /** Renews the lease this often while an attempt runs: a work may then take far longer than the lease. */
  heartbeatMs?: number;
  /** At each heartbeat, given the row as it stands now: a reason to abort the attempt's signal (a cancellation), if any. */
  interrupt?(row: Row): string | undefined;
  pollMs: number;
  /** Rows worked on at once by one worker. */
  parallel?: number;
  /** The pause before retrying a row, growing with its attempts (with jitter). */
  retry: Pick<BackoffOptions, 'baseMs' | 'maxMs'>;
  /** A row still failing after this many attempts is parked; none: retried until `work` parks it. */
  maxAttempts?: number;
  /** This replica's name (`replicaName`), for `table.replicaColumn`. */
  replica?: string;
  /** This process's part of lease tokens; unique per process unless given. */
  owner?: string;
  /** Further columns set when a row is claimed (a state). */
  claimed?: Record<string, unknown>;
  /** How long `stop` waits for attempts under way after telling them to stop (5 s unless given). */
  stopWaitMs?: number;
  /** One attempt at a claimed row (`attempts` already counts it). */
  work(row: Row, lease: Lease<Row>): Promise<WorkOutcome>;
  /** The columns that mark a row done. */
  done(row: Row): Record<string, unknown>;
  /** The columns that mark a row parked. */
  park(row: Row): Record<string, unknown>;
  /** Further writes in the transaction that records an outcome (an attempts log); skipped when the claim no longer holds the row. */
  recorded?(trx: Knex.Transaction, row: Row, outcome: WorkOutcome): Promise<void>;
}

interface Attempt<Row> {
  lease: Lease<Row>;
  controller: AbortController;
  heartbeat?: NodeJS.Timeout;
  /** Set once the work settled its lease itself: whether its outcome was recorded. */
  settled?: boolean;
  done: Promise<void>;
}

const milliseconds = (db: Db | Knex.Transaction, ms: number) => db.raw(`now() + ?::double precision * interval '1 millisecond'`, [Math.max(0, ms)]);

/** The queues started in this process, by `service/queue`: a replay wakes them. */
const started = new Map<string, Set<LeasedQueue<{ attempts: number }>>>();

/** Wakes this process's workers of a queue (after a replay made rows due). */
export function wakeQueue(service: string, queue: string): void {
  for (const worker of started.get(`${service}/${queue}`) ?? []) worker.wake();
}

/** Makes parked rows (all, or those with these keys) due again with their attempts reset; returns how many. */
export async function replayParkedRows(db: Db, declaration: QueueDeclaration, keys?: unknown[]): Promise<number> {
  const { table, unpark, queue } = declaration;
  if (!unpark) throw new Error(`${queue}: parked rows are final here and cannot be replayed`);
  let query = db(table.table).whereRaw(table.parked);
  if (keys) query = query.whereIn(table.key ?? 'id', keys as never[]);
  return query.update({ ...unpark, attempts: 0, lease_owner: null, [table.dueColumn ?? 'next_attempt_at']: db.fn.now() });
}

/**
 * A durable queue of rows worked on by any number of workers (replicas), in the manner of pg-boss or
 * graphile-worker: each claims a due row with `FOR UPDATE SKIP LOCKED` and leases it (its due column
 * pushed past the lease, `lease_owner` set to a token of this claim alone), so other workers skip it
 * meanwhile and a worker that dies mid-attempt has it taken over once the lease ends. A long attempt
 * keeps its lease with a heartbeat. Every write of an attempt is fenced by its token: once another
 * worker has taken the row over, the stale worker can neither commit through `lease.hold` nor record
 * an outcome. Outcomes: done, retried after a jittered growing pause, released, or parked after
 * `maxAttempts` (visible, replayable). Woken by `wake`, polling as a fallback; measured per queue
 * (depth, age of the oldest, attempts by outcome, parked). Works on PGlite and PostgreSQL.
 */
export class LeasedQueue<Row extends { attempts: number }> {
  private readonly loop: WorkLoop;
  private readonly active = new Map<unknown, Attempt<Row>>();
  private readonly owner: string;
  private readonly key: string;
  private readonly due: string;
  private claims = 0;
  private abandoned = false;
  private stopMeasuring?: () => void;

  constructor(private readonly options: LeasedQueueOptions<Row>) {
    this.owner = options.owner ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
    this.key = options.table.key ?? 'id';
    this.due = options.table.dueColumn ?? 'next_attempt_at';
    this.loop = new WorkLoop({
      name: `${options.service} ${options.queue} queue`,
      logger: options.logger,
      step: async () => { await this.claimWhileRoom(); },
      pollMs: options.pollMs,
      retry: { baseMs: options.pollMs, maxMs: Math.max(options.pollMs, 30_000) },
    });
  }

  start(): void {
    const { service, queue } = this.options;
    this.stopMeasuring ??= measureQueue(service, queue, () => this.measure());
    const key = `${service}/${queue}`;
    started.set(key, (started.get(key) ?? new Set()).add(this as unknown as LeasedQueue<{ attempts: number }>));
    this.loop.start();
  }

  /** Work on what is due now instead of at the next poll (after rows were queued). */
  readonly wake = (): void => this.loop.wake();

  /**
   * Stops claiming, tells the attempts under way to stop (their signals abort with `shutdown`) and
   * waits for them at most `stopWaitMs`; one still running then is left to its lease, as after a crash.
   */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.forget();
    for (const attempt of this.active.values()) attempt.controller.abort('shutdown');
    const waitMs = this.options.stopWaitMs ?? 5_000;
    if (await settlesWithin(Promise.allSettled([...this.active.values()].map((attempt) => attempt.done)), waitMs)) return;
    this.options.logger.error({ queue: this.options.queue, keys: this.leasedKeys }, `${this.options.queue}: attempts still under way ${waitMs / 1000} s after the shutdown told them to stop: left to their leases`);
    for (const attempt of this.active.values()) clearInterval(attempt.heartbeat);
  }

  /**
   * Stops at once without recording anything or handing rows back, as a crash would: their leases
   * run out and another worker takes them over. For a process that must die now (and for takeover tests).
   */
  abandon(): void {
    this.abandoned = true;
    void this.loop.stop();
    this.forget();
    for (const attempt of this.active.values()) {
      clearInterval(attempt.heartbeat);
      attempt.controller.abort('lease_lost');
    }
  }

  /** The keys of the rows this worker is working on now. */
  get leasedKeys(): unknown[] {
    return [...this.active.keys()];
  }

  /** Works on what is due now (up to `parallel` at a time) until nothing is; resolves how many attempts it made. */
  async drainOnce(): Promise<number> {
    let attempts = 0;
    for (;;) {
      const claimed = await this.claimWhileRoom(true);
      attempts += claimed;
      if (!this.active.size) return attempts;
      await Promise.race([...this.active.values()].map((attempt) => attempt.done));
    }
  }

  /**
   * Claims one due row for work done by hand (a tool, a test): the caller commits through the lease
   * and settles it; nothing renews it.
   */
  async claim(): Promise<Lease<Row> | undefined> {
    const row = await this.claimRow();
    return row ? this.leaseOf(row, new AbortController()).lease : undefined;
  }

  private forget(): void {
    this.stopMeasuring?.();
    this.stopMeasuring = undefined;
    started.get(`${this.options.service}/${this.options.queue}`)?.delete(this as unknown as LeasedQueue<{ attempts: number }>);
  }

  /** Claims rows while this worker has room; their attempts go on in the background and wake the loop when they end. */
  private async claimWhileRoom(once = false): Promise<number> {
    let claimed = 0;
    while ((once || this.loop.isRunning) && this.active.size < (this.options.parallel ?? 1)) {
      const row = await this.claimRow();
      if (!row) break;
      claimed++;
      this.begin(row, once);
    }
    return claimed;
  }

  private async claimRow(): Promise<Row | undefined> {
    const { db, table, leaseMs, replica, claimed } = this.options;
    const token = `${this.owner}:${++this.claims}`;
    const bindings: unknown[] = [];
    let due = `${this.due} IS NULL OR ${this.due} <= now()`;
    if (replica && table.replicaColumn) {
      // An earlier process of this replica held it: that process is dead.
      due += ` OR (lease_owner IS NOT NULL AND ${table.replicaColumn} = ? AND NOT starts_with(lease_owner, ?))`;
      bindings.push(replica, `${this.owner}:`);
    }
    const next = db(table.table).select(this.key).whereRaw(`(${table.pending}) AND (${due})`, bindings as never[])
      .orderByRaw(table.order).limit(1).forUpdate().skipLocked();
    const rows = await db(table.table).where(this.key, next).update({
      ...claimed,
      attempts: db.raw('attempts + 1'),
      [this.due]: milliseconds(db, leaseMs),
      lease_owner: token,
      ...(replica && table.replicaColumn ? { [table.replicaColumn]: replica } : {}),
    }).returning('*');
    return rows[0] as Row | undefined;
  }

  private begin(row: Row, once: boolean): void {
    const { heartbeatMs } = this.options;
    const controller = new AbortController();
    const { lease, attempt } = this.leaseOf(row, controller);
    const keyOf = (row as Record<string, unknown>)[this.key];
    // Stopped while the claim was on its way: hand it straight back rather than start work nobody stops.
    const stopping = !once && !this.loop.isRunning;
    if (heartbeatMs && !stopping) attempt.heartbeat = setInterval(() => void this.renew(lease, controller), heartbeatMs);
    attempt.done = (stopping ? Promise.resolve<WorkOutcome>({ kind: 'release' }) : this.run(lease))
      .then((outcome) => this.finish(attempt, outcome))
      .catch((error: unknown) => this.options.logger.error({ err: error, queue: this.options.queue, key: keyOf }, `${this.options.queue}: could not record an attempt's outcome; its lease will run out`))
      .finally(() => {
        clearInterval(attempt.heartbeat);
        this.active.delete(keyOf);
        this.wake();
      });
    this.active.set(keyOf, attempt);
  }

  private leaseOf(row: Row, controller: AbortController): { lease: Lease<Row>; attempt: Attempt<Row> } {
    const { table } = this.options;
    const token = (row as unknown as { lease_owner: string }).lease_owner;
    const keyOf = (row as Record<string, unknown>)[this.key];
    const attempt = { controller, done: Promise.resolve() } as Attempt<Row>;
    const lease: Lease<Row> = {
      row,
      token,
      signal: controller.signal,
      hold: async (trx) => {
        const current = await trx(table.table).where(this.key, keyOf as Knex.Value).forUpdate().first();
        return current && current.lease_owner === token ? current : undefined;
      },
      settle: async (trx, outcome, columns = {}) => {
        const recorded = await this.record(trx, row, token, outcome, columns);
        attempt.settled = recorded;
        // Rolled back after all: the queue records what the work reports instead.
        let outermost = trx;
        while (outermost.parentTransaction) outermost = outermost.parentTransaction;
        outermost.executionPromise.catch(() => { attempt.settled = undefined; });
        return recorded;
      },
    };
    attempt.lease = lease;
    return { lease, attempt };
  }

  private async run(lease: Lease<Row>): Promise<WorkOutcome> {
    try {
      return await this.options.work(lease.row, lease);
    } catch (error) {
      return { kind: 'retry', error: (error as Error).message };
    }
  }

  private async renew(lease: Lease<Row>, controller: AbortController): Promise<void> {
    if (controller.signal.aborted) return;
    const { db, table, leaseMs, interrupt, logger, queue } = this.options;
    try {
      const [row] = await db(table.table).where({ [this.key]: (lease.row as Record<string, unknown>)[this.key], lease_owner: lease.token })
        .update({ [this.due]: milliseconds(db, leaseMs) }).returning('*');
      if (!row) controller.abort('lease_lost');
      else {
        const reason = interrupt?.(row);
        if (reason) controller.abort(reason);
      }
    } catch (error) {
      logger.warn({ err: error, queue, key: (lease.row as Record<string, unknown>)[this.key] }, `${queue}: could not renew a lease`);
    }
  }

  private async finish(attempt: Attempt<Row>, reported: WorkOutcome): Promise<void> {
    const { logger, service, queue, maxAttempts, db } = this.options;
    const { row, token } = attempt.lease;
    let outcome = reported;
    if (outcome.kind === 'retry' && maxAttempts !== undefined && row.attempts >= maxAttempts) {
      outcome = { kind: 'park', error: outcome.error };
    }
    // A crash records nothing; a work that settled its lease has recorded its outcome already.
    if (this.abandoned) return;
    const delayMs = outcome.kind === 'retry'
      ? (outcome.at ? outcome.at.getTime() - Date.now() : backoffWithJitter(row.attempts, this.options.retry))
      : 0;
    const recorded = attempt.settled ?? await db.transaction((trx) => this.record(trx, row, token, outcome, {}, delayMs));
    countAttempt(service, queue, outcome.kind === 'done' ? 'done' : outcome.kind === 'park' ? 'parked' : 'retried');
    const key = (row as Record<string, unknown>)[this.key];
    if (!recorded) {
      logger.info({ queue, key, outcome: outcome.kind }, `${queue}: the lease was lost before the outcome was recorded; the row's new holder works on it`);
    } else if (outcome.kind === 'retry') {
      this.loop.wakeIn(delayMs + 50);
      logger.info({ queue, key, attempt: row.attempts, err: outcome.error, retryInMs: delayMs }, `${queue}: attempt failed; it will be retried`);
    } else if (outcome.kind === 'park') {
      logger.error({ queue, key, attempts: row.attempts, err: outcome.error }, `${queue}: given up and parked`);
    }
  }

  /** Writes an outcome if `token` still holds the row (the fence); false when it does not (taken over, or deleted). */
  private async record(trx: Knex.Transaction, row: Row, token: string, outcome: WorkOutcome, extra: Record<string, unknown>, delayMs = 0): Promise<boolean> {
    const { table } = this.options;
    const lastError = table.lastErrorColumn && outcome.kind !== 'release'
      ? { [table.lastErrorColumn]: outcome.kind === 'done' ? null : outcome.error.slice(0, 500) }
      : {};
    const columns = outcome.kind === 'done' ? this.options.done(row)
      // A parked row's due column tells when it was parked.
      : outcome.kind === 'park' ? { [this.due]: trx.fn.now(), ...this.options.park(row) }
        : { [this.due]: milliseconds(trx, delayMs) };
    const updated = await trx(table.table).where({ [this.key]: (row as Record<string, unknown>)[this.key], lease_owner: token })
      .update({ ...lastError, ...columns, ...extra, lease_owner: null }).returning(this.key);
    if (!updated.length) return false;
    await this.options.recorded?.(trx, row, outcome);
    return true;
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

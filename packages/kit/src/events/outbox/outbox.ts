import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Gauge, register } from 'prom-client';
import { v7 as uuidv7 } from 'uuid';
import { EVENT_TYPES, type EventData, type EventEnvelope, type EventType } from '@leadforge/contracts';
import type { Bus } from '../bus/bus.ts';
import type { Db } from '../../db/database.ts';
import { eventDataProblem } from './eventData.ts';
import { activeTraceparent } from '../../tracing.ts';
import { countAttempt, measureQueue } from '../../work/queueMetrics.ts';
import { WorkLoop } from '../../work/workLoop.ts';

const backlog = (register.getSingleMetric('leadforge_outbox_backlog') as Gauge<'service'> | undefined)
  ?? new Gauge({ name: 'leadforge_outbox_backlog', help: 'Outbox events not yet published.', labelNames: ['service'] });
const published = (register.getSingleMetric('leadforge_events_published_total') as Counter<'service' | 'topic'> | undefined)
  ?? new Counter({ name: 'leadforge_events_published_total', help: 'Events the outbox relay published.', labelNames: ['service', 'topic'] });

/** Tells relays that a transaction which wrote outbox rows has committed. */
const commits = new EventEmitter().setMaxListeners(0);

/** Wakes this process's relays: for a write to the outbox made other than by `emitEvent` (a replay). */
export function wakeOutboxRelays(): void {
  commits.emit('commit');
}

export interface EmitOptions {
  traceparent?: string;
}

/** Writes the event announcing a change into the outbox, in the transaction that makes the change. */
export async function emitEvent<T extends EventType>(
  trx: Knex.Transaction,
  type: T,
  key: string,
  data: EventData<T>,
  opts: EmitOptions = {},
): Promise<EventEnvelope<EventData<T>>> {
  const problem = eventDataProblem(type, data);
  if (problem) throw new Error(`event ${type} does not match its contract: ${problem}`);
  const envelope: EventEnvelope<EventData<T>> = {
    id: uuidv7(),
    type,
    version: 1,
    occurred_at: new Date().toISOString(),
    key,
    data,
  };
  // The trace of the request (or event) that made the change travels with the event.
  const traceparent = opts.traceparent ?? activeTraceparent();
  if (traceparent) envelope.traceparent = traceparent;
  await trx('kit_outbox').insert({ event_id: envelope.id, topic: EVENT_TYPES[type].topic, key, envelope: JSON.stringify(envelope) });
  let outermost = trx;
  while (outermost.parentTransaction) outermost = outermost.parentTransaction;
  outermost.executionPromise.then(wakeOutboxRelays, () => undefined);
  return envelope;
}

export interface OutboxRelayOptions {
  db: Db;
  bus: Bus;
  service: string;
  logger: Logger;
  pollMs?: number;
  batch?: number;
  /** How long a relay keeps the right to publish without renewing it; must exceed the slowest publish. */
  leaseMs?: number;
  /** How long published rows stay in the outbox (to look into what was sent) before they are deleted. */
  keepPublishedMs?: number;
  /**
   * What tells this relay from other replicas of the service and stays the same when it restarts
   * (the kit's `replicaName`): a restarted relay takes its own lease back at once.
   */
  replica?: string;
}

/** How long stopping waits for a publish under way: shutdown must fit the orchestrator's grace period. */
const STOP_WAIT_MS = 5_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 10_000;
const OUTBOX_QUEUE = 'outbox';
/** The ceiling of the first retry's pause after a failed publish (doubling with each failure in a row, up to 30 s). */
const RETRY_BASE_MS = 500;

interface OutboxRow {
  seq: number;
  topic: string;
  key: string;
  envelope: EventEnvelope;
}

/** The bus's answers that no retry changes (kafkajs protocol errors, found through the error's causes). */
const REFUSED_FOR_GOOD = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD']);

/** Whether the bus refused a publish for good rather than being away (an outage is retried, never parked). */
export function refusedForGood(error: unknown): boolean {
  for (let e = error as { type?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.type === 'string' && REFUSED_FOR_GOOD.has(e.type)) return true;
  }
  return false;
}

/** Makes parked outbox rows (all, or those with these seqs) publishable again; returns how many. */
export async function replayParkedOutbox(db: Db, seqs?: number[]): Promise<number> {
  let query = db('kit_outbox').whereNotNull('parked_at').whereNull('published_at');
  if (seqs) query = query.whereIn('seq', seqs);
  const replayed = await query.update({ parked_at: null, last_error: null });
  if (replayed) wakeOutboxRelays();
  return replayed;
}

/**
 * Drops the published copies of events with these keys, which the outbox otherwise keeps until its
 * pruning: an erased account's events may name what it searched. Unpublished ones still go out.
 */
export async function forgetPublishedEvents(trx: Db | Knex.Transaction, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  return trx('kit_outbox').whereIn('key', keys).whereNotNull('published_at').del();
}

/**
 * Publishes outbox rows in `seq` order and marks them published only once the bus accepted them.
 * A row the bus refuses for good is parked (kept, with the bus's answer, for `replayParkedOutbox`)
 * and the rows after it go on. One relay per database publishes at a time, by holding a lease row
 * rather than a transaction around the publish: on PGlite (one connection) a transaction held while
 * the in-process bus waits for consumers would block those very consumers. Runs on the kit's
 * WorkLoop: woken by commits, polling as a fallback, jittered backoff while the bus is away.
 */
export class OutboxRelay {
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly service: string;
  private readonly logger: Logger;
  private readonly batch: number;
  private readonly leaseMs: number;
  private readonly keepPublishedMs: number;
  private prunedAt = 0;
  /** The same after a restart of this replica; no process id, so a restarted relay need not wait for its own lease. */
  private readonly holder: string;
  private readonly loop: WorkLoop;
  private stopMeasuring?: () => void;
  private draining?: Promise<number>;

  constructor(options: OutboxRelayOptions) {
    this.db = options.db;
    this.bus = options.bus;
    this.service = options.service;
    this.logger = options.logger;
    this.batch = options.batch ?? 100;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.keepPublishedMs = options.keepPublishedMs ?? 7 * DAY_MS;
    this.holder = `${this.service}@${options.replica ?? os.hostname()}`;
    const pollMs = options.pollMs ?? 250;
    this.loop = new WorkLoop({
      name: `${this.service} outbox relay`,
      logger: this.logger,
      step: () => this.step(),
      pollMs,
      // After a failed publish (the bus away) the first retry comes within twice the poll, and within
      // RETRY_BASE_MS however long the poll: an embedded database's 5 s poll is only a fallback, and the
      // end of an outage is noticed only by retrying.
      retry: { baseMs: Math.min(2 * pollMs, RETRY_BASE_MS), maxMs: 30_000 },
      stopWaitMs: STOP_WAIT_MS,
    });
  }

  start(): void {
    if (this.loop.isRunning) return;
    commits.on('commit', this.wake);
    this.stopMeasuring = measureQueue(this.service, OUTBOX_QUEUE, () => this.measure());
    this.loop.start();
  }

  /** Publish soon rather than at the next poll. */
  readonly wake = (): void => this.loop.wake();

  /**
   * Ends the loop, waits a little for a publish under way and gives the lease up for the next relay.
   * A publish still pending then (the bus is away) is left behind: its rows stay unpublished, and
   * whichever relay runs next publishes them.
   */
  async stop(): Promise<void> {
    commits.off('commit', this.wake);
    await this.loop.stop();
    this.stopMeasuring?.();
    this.stopMeasuring = undefined;
    await this.db('kit_outbox_relay_lease').where({ holder: this.holder }).update({ expires_at: this.db.fn.now() });
  }

  /** Publishes one batch if this relay holds the lease; returns how many rows it published or parked. */
  drainOnce(): Promise<number> {
    this.draining ??= this.drain().finally(() => { this.draining = undefined; });
    return this.draining;
  }

  private async step(): Promise<boolean> {
    const handled = await this.drainOnce();
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.prunePublished();
    }
    return handled === this.batch;
  }

  private async drain(): Promise<number> {
    const [{ count }] = await this.db('kit_outbox').whereNull('published_at').whereNull('parked_at').count({ count: '*' });
    const waiting = Number(count);
    backlog.set({ service: this.service }, waiting);
    if (!waiting || !(await this.holdLease())) return 0;

    const rows: OutboxRow[] = await this.db('kit_outbox')
      .select('seq', 'topic', 'key', 'envelope')
      .whereNull('published_at')
      .whereNull('parked_at')
      .orderBy('seq')
      .limit(this.batch);
    if (!rows.length) return 0;
    try {
      await this.publish(rows);
    } catch (error) {
      if (!refusedForGood(error)) throw error;
      // One of them is refused whatever the retries: one at a time, to park only that one.
      for (const row of rows) {
        try {
          await this.publish([row]);
        } catch (rowError) {
          if (!refusedForGood(rowError)) throw rowError;
          await this.park(row, rowError as Error);
        }
      }
    }
    backlog.set({ service: this.service }, Math.max(0, waiting - rows.length));
    return rows.length;
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    await this.bus.publish(rows.map(({ topic, key, envelope }) => ({ topic, key, envelope })));
    await this.db('kit_outbox').whereIn('seq', rows.map((row) => row.seq)).update({ published_at: this.db.fn.now() });
    for (const row of rows) published.inc({ service: this.service, topic: row.topic });
    countAttempt(this.service, OUTBOX_QUEUE, 'done', rows.length);
  }

  private async park(row: OutboxRow, error: Error): Promise<void> {
    await this.db('kit_outbox').where({ seq: row.seq }).update({ parked_at: this.db.fn.now(), last_error: error.message.slice(0, 500) });
    countAttempt(this.service, OUTBOX_QUEUE, 'parked');
    this.logger.error({ err: error, seq: row.seq, eventId: row.envelope.id, topic: row.topic },
      'outbox event parked: the bus refuses it for good; later events go on (replay with replayParkedOutbox once fixed)');
  }

  private async measure() {
    const result = await this.db.raw(`
      SELECT count(*) FILTER (WHERE published_at IS NULL AND parked_at IS NULL) AS depth,
             coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE published_at IS NULL AND parked_at IS NULL)), 0) AS oldest,
             count(*) FILTER (WHERE parked_at IS NOT NULL AND published_at IS NULL) AS parked
      FROM kit_outbox WHERE published_at IS NULL`);
    const [{ depth, oldest, parked }] = result.rows;
    return { depth: Number(depth), oldestAgeSeconds: Number(oldest), parked: Number(parked) };
  }

  /**
   * Deletes rows published longer ago than keepPublishedMs, in bounded batches; returns how many.
   * Replays never read the outbox (they read the bus), so a published row is only a record.
   */
  async prunePublished(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const result = await this.db.raw(
        `DELETE FROM kit_outbox WHERE seq IN (
           SELECT seq FROM kit_outbox
           WHERE published_at < now() - ?::bigint * interval '1 millisecond'
           ORDER BY seq LIMIT ?)`,
        [this.keepPublishedMs, PRUNE_BATCH],
      );
      const count = Number(result.rowCount ?? 0);
      deleted += count;
      if (count < PRUNE_BATCH) return deleted;
    }
  }

  /** Takes or renews the lease; false while another relay holds an unexpired one. */
  private async holdLease(): Promise<boolean> {
    const result = await this.db.raw(
      `INSERT INTO kit_outbox_relay_lease (id, holder, expires_at)
       VALUES (1, ?, now() + ?::integer * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE kit_outbox_relay_lease.holder = excluded.holder OR kit_outbox_relay_lease.expires_at <= now()
       RETURNING holder`,
      [this.holder, this.leaseMs],
    );
    return result.rows.length > 0;
  }
}

import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Gauge, register } from 'prom-client';
import { v7 as uuidv7 } from 'uuid';
import { EVENT_TYPES, type EventData, type EventEnvelope, type EventType } from '@leadforge/contracts';
import type { Bus } from '../bus/bus.ts';
import type { Db } from '../db/database.ts';
import { eventDataProblem } from './eventData.ts';
import { activeTraceparent } from '../tracing.ts';

const backlog = (register.getSingleMetric('leadforge_outbox_backlog') as Gauge<'service'> | undefined)
  ?? new Gauge({ name: 'leadforge_outbox_backlog', help: 'Outbox events not yet published.', labelNames: ['service'] });
const published = (register.getSingleMetric('leadforge_events_published_total') as Counter<'service' | 'topic'> | undefined)
  ?? new Counter({ name: 'leadforge_events_published_total', help: 'Events the outbox relay published.', labelNames: ['service', 'topic'] });

/** Tells relays that a transaction which wrote outbox rows has committed. */
const commits = new EventEmitter().setMaxListeners(0);

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
  outermost.executionPromise.then(() => commits.emit('commit'), () => undefined);
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
}

const relaysStarted = new Map<string, number>();
const MAX_BACKOFF_MS = 30_000;
/** How long stopping waits for a publish under way: shutdown must fit the orchestrator's grace period. */
const STOP_WAIT_MS = 5_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 10_000;

interface OutboxRow {
  seq: number;
  topic: string;
  key: string;
  envelope: EventEnvelope;
}

/**
 * Publishes outbox rows in `seq` order and marks them published only once the bus accepted them.
 * One relay per database publishes at a time, by holding a lease row rather than a transaction
 * around the publish: on PGlite (one connection) a transaction held while the in-process bus waits
 * for consumers would block those very consumers.
 */
export class OutboxRelay {
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly service: string;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly leaseMs: number;
  private readonly keepPublishedMs: number;
  private prunedAt = 0;
  /** The same after a restart on the same host, so a restarted relay need not wait for its own lease. */
  private readonly holder: string;
  private running = false;
  private loop?: Promise<void>;
  private draining?: Promise<number>;
  private woken = false;
  private endPause?: () => void;
  private wakePause?: () => void;

  constructor(options: OutboxRelayOptions) {
    this.db = options.db;
    this.bus = options.bus;
    this.service = options.service;
    this.logger = options.logger;
    this.pollMs = options.pollMs ?? 250;
    this.batch = options.batch ?? 100;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.keepPublishedMs = options.keepPublishedMs ?? 7 * DAY_MS;
    const instance = (relaysStarted.get(this.service) ?? 0) + 1;
    relaysStarted.set(this.service, instance);
    // The pid too: replicas of one service on one machine (start:distributed) share its hostname.
    this.holder = `${this.service}@${os.hostname()}:${process.pid}#${instance}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    commits.on('commit', this.wake);
    this.loop = this.run();
  }

  /** Publish soon rather than at the next poll. */
  readonly wake = (): void => {
    this.woken = true;
    this.wakePause?.();
  };

  /**
   * Ends the loop, waits a little for a publish under way and gives the lease up for the next relay.
   * A publish still pending then (the bus is away) is left behind: its rows stay unpublished, and
   * whichever relay runs next publishes them.
   */
  async stop(): Promise<void> {
    this.running = false;
    commits.off('commit', this.wake);
    this.endPause?.();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => { timer = setTimeout(resolve, STOP_WAIT_MS); });
    await Promise.race([Promise.all([this.loop, this.draining?.catch(() => undefined)]), waited]);
    clearTimeout(timer);
    await this.db('kit_outbox_relay_lease').where({ holder: this.holder }).update({ expires_at: this.db.fn.now() });
  }

  /** Publishes one batch if this relay holds the lease; returns how many rows it published. */
  drainOnce(): Promise<number> {
    this.draining ??= this.drain().finally(() => { this.draining = undefined; });
    return this.draining;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      this.woken = false;
      let delay = this.pollMs;
      let wakeable = true;
      try {
        if ((await this.drainOnce()) === this.batch) delay = 0;
        if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
          this.prunedAt = Date.now();
          await this.prunePublished();
        }
        failures = 0;
      } catch (error) {
        failures++;
        delay = Math.min(this.pollMs * 2 ** failures, MAX_BACKOFF_MS);
        wakeable = false;
        this.logger.warn({ err: error, failures, retryInMs: delay }, 'outbox relay could not publish; will retry');
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

  private async drain(): Promise<number> {
    const [{ count }] = await this.db('kit_outbox').whereNull('published_at').count({ count: '*' });
    const waiting = Number(count);
    backlog.set({ service: this.service }, waiting);
    if (!waiting || !(await this.holdLease())) return 0;

    const rows: OutboxRow[] = await this.db('kit_outbox')
      .select('seq', 'topic', 'key', 'envelope')
      .whereNull('published_at')
      .orderBy('seq')
      .limit(this.batch);
    if (!rows.length) return 0;
    await this.bus.publish(rows.map(({ topic, key, envelope }) => ({ topic, key, envelope })));
    await this.db('kit_outbox').whereIn('seq', rows.map((row) => row.seq)).update({ published_at: this.db.fn.now() });
    for (const row of rows) published.inc({ service: this.service, topic: row.topic });
    backlog.set({ service: this.service }, Math.max(0, waiting - rows.length));
    return rows.length;
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

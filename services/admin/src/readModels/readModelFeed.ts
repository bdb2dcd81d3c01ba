import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit/db';
import type { Subscription } from '@leadforge/kit/events';
import type { ServiceContext } from '@leadforge/kit/service';
import { conflict } from '@leadforge/kit/http';
import { guardedByGeneration } from './generationGuard.ts';
import { PROJECTED_TOPICS, readModelProjection } from './readModelProjection.ts';

/** Every table the projection writes; a rebuild empties exactly these (never the audit log). */
const READ_MODEL_TABLES = ['rm_users', 'rm_user_totals', 'rm_purchases', 'rm_activity', 'rm_contact_submissions', 'rm_daily'];

export const consumerGroupOf = (generation: string) => `admin.read-models.${generation}`;

/** This database's generation; a fresh database starts a new one, and so reads every topic from the start. */
export async function readModelGeneration(db: Db): Promise<string> {
  await db('rm_generation').insert({ id: 1, generation: newGeneration() }).onConflict('id').ignore();
  const row = await db('rm_generation').where({ id: 1 }).first('generation');
  return row.generation;
}

const newGeneration = () => `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${crypto.randomBytes(4).toString('hex')}`;

/**
 * Feeds the read models from the bus under a consumer group named after the database's generation.
 * A new group starts from the oldest retained event of each topic, so a fresh (or rebuilt) database
 * replays everything the bus still holds.
 */
export class ReadModelFeed {
  private subscription?: Subscription;
  private generation?: string;
  private changing?: Promise<unknown>;

  private readonly db: Db;
  private readonly log: ServiceContext['log'];

  constructor(private readonly ctx: ServiceContext) {
    this.db = ctx.db;
    this.log = ctx.log;
  }

  get group(): string | undefined {
    return this.generation ? consumerGroupOf(this.generation) : undefined;
  }

  /** Starts consuming (answers the feed, to stop it with the service). */
  async start(): Promise<this> {
    const generation = await readModelGeneration(this.db);
    this.generation = generation;
    this.subscription = await this.ctx.consume(
      consumerGroupOf(generation),
      PROJECTED_TOPICS,
      guardedByGeneration(readModelProjection, generation, () => this.followNewGeneration(generation)),
    );
    this.log.info({ group: this.group, topics: PROJECTED_TOPICS }, 'admin read models consuming');
    return this;
  }

  /** Empties the read models and replays every retained event into them under a new generation. */
  async rebuild(): Promise<string> {
    if (this.changing) throw conflict('A rebuild of the read models is already starting; try again in a moment', 'rebuild_running');
    const previous = this.generation;
    const rebuilt = (async () => {
      await this.stop();
      try {
        await this.db.transaction(async (trx) => {
          // The generation row first: consumers of other replicas hold it FOR SHARE while they write.
          await trx('rm_generation').where({ id: 1 }).update({ generation: newGeneration(), started_at: trx.fn.now() });
          for (const table of READ_MODEL_TABLES) await trx.raw('TRUNCATE TABLE ??', [table]);
          if (previous) await trx('kit_handled_events').where({ consumer: consumerGroupOf(previous) }).delete();
        });
      } finally {
        // The new generation when the swap committed, the old one (where it left off) when it did not.
        await this.start();
      }
    })();
    this.changing = rebuilt;
    try {
      await rebuilt;
    } finally {
      this.changing = undefined;
    }
    this.log.warn({ previous, group: this.group }, 'admin read models rebuilt from the retained events');
    return this.group!;
  }

  /** Another replica rebuilt the read models: leave the old group and join the new generation. */
  private followNewGeneration(stale: string): void {
    if (this.changing || this.generation !== stale) return;
    // Not awaited here: closing the subscription waits for the very handler that noticed.
    this.changing = (async () => {
      await this.stop();
      await this.start();
      this.log.warn({ stale, group: this.group }, 'admin read models were rebuilt elsewhere; now consuming the new generation');
    })().catch((err) => this.log.error({ err }, 'could not follow the new read-model generation')).finally(() => { this.changing = undefined; });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
  }
}

import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';
import { backoffWithJitter } from '@leadforge/kit/work';
import { emitEvent } from '@leadforge/kit/events';
import { paymentRequired } from '@leadforge/kit/http';
import { insufficientCreditsDetail } from '@leadforge/contracts';
import { creditsMoved } from '../metrics.ts';

export type Trx = Knex.Transaction;

export type LedgerReason = 'signup' | 'purchase' | 'promo' | 'generation' | 'generation_refund' | 'admin' | 'refund';

export interface LedgerEntryInput {
  userId: string;
  delta: number;
  reason: LedgerReason;
  /** What the entry is about: `purchase:<id>`, `search:<id>`, `user:<id>`... */
  ref: string;
  /** The same key twice is one entry. */
  key: string;
  actorId?: string;
  note?: string;
}

export interface LedgerEntry {
  id: number;
  user_id: string;
  delta: number;
  balance_after: number;
  reason: LedgerReason;
  ref: string;
  idempotency_key: string;
  actor_id: string | null;
  note: string | null;
  created_at: Date;
}

/** The balance is short: `have` credits, `need` wanted. Becomes the spec's 402 at the edge. */
export class InsufficientCredits extends Error {
  constructor(readonly have: number, readonly need: number) {
    super(insufficientCreditsDetail(have, need));
    this.name = 'InsufficientCredits';
  }

  toHttp() {
    return paymentRequired(this.message);
  }
}

/** Locks the user's balance row for the rest of the transaction and returns the balance. */
export async function lockBalance(trx: Trx, userId: string): Promise<number> {
  const row = await trx('credit_balances').where({ user_id: userId }).forUpdate().first('balance');
  return row ? Number(row.balance) : 0;
}

export async function balanceOf(db: Db | Trx, userId: string): Promise<number | undefined> {
  const row = await db('credit_balances').where({ user_id: userId }).first('balance');
  return row ? Number(row.balance) : undefined;
}

/**
 * One statement: lock the balance row, refuse to go below zero, insert the entry unless its key
 * was used (the trigger then applies it to the balance). Answers the locked balance either way,
 * so a refusal names the balance it was refused against.
 */
const APPEND_SQL = `
WITH current AS (
  SELECT COALESCE((SELECT balance FROM credit_balances WHERE user_id = ? FOR UPDATE), 0) AS balance
), inserted AS (
  INSERT INTO credit_ledger (user_id, delta, balance_after, reason, ref, idempotency_key, actor_id, note)
  SELECT ?, ?::integer, current.balance + ?::integer, ?, ?, ?, ?, ? FROM current WHERE current.balance + ?::integer >= 0
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING *
)
SELECT current.balance AS locked_balance, inserted.* FROM current LEFT JOIN inserted ON true`;

/**
 * Appends one entry under the balance row lock and announces it (`credits.changed`) in the same
 * transaction. Idempotent by key: a key already used answers its entry with `applied: false`.
 * Refuses to go below zero here; the database refuses it too (CHECK on credit_balances).
 */
export async function appendEntry(trx: Trx, input: LedgerEntryInput): Promise<{ entry: LedgerEntry; applied: boolean }> {
  if (!Number.isInteger(input.delta) || input.delta === 0) throw new Error(`ledger delta must be a non-zero integer, got ${input.delta}`);
  const { userId, delta } = input;
  const result = await trx.raw(APPEND_SQL, [userId, userId, delta, delta, input.reason, input.ref, input.key, input.actorId ?? null, input.note ?? null, delta]);
  const { locked_balance: balance, ...row } = result.rows[0] as LedgerEntry & { locked_balance: number };
  if (row.id === null) {
    const existing: LedgerEntry | undefined = await trx('credit_ledger').where({ idempotency_key: input.key }).first();
    if (existing) return { entry: existing, applied: false };
    throw new InsufficientCredits(Number(balance), -delta);
  }
  const entry = row as LedgerEntry;
  await emitEvent(trx, 'credits.changed', userId, { user_id: userId, delta, balance: entry.balance_after, reason: input.reason, ref: input.ref });
  trx.executionPromise.then(() => creditsMoved.inc({ reason: input.reason, direction: delta > 0 ? 'in' : 'out' }, Math.abs(delta)), () => undefined);
  return { entry, applied: true };
}

const RETRYABLE = new Set([
  '40001', // serialization failure: the ledger trigger saw a balance the writer did not lock
  '40P01', // deadlock
  '23505', // a concurrent writer used the same idempotency key or row first; the retry finds it
]);

/**
 * Runs money work in one transaction and runs it again when Postgres resolves a race by aborting
 * one side (the retry then sees the winner's committed row and answers idempotently).
 */
export async function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 5 || !code || !RETRYABLE.has(code)) throw err;
      // Jittered, so the two sides of the race do not collide again.
      await new Promise((resolve) => setTimeout(resolve, backoffWithJitter(attempt, { baseMs: 10, maxMs: 100 })));
    }
  }
}

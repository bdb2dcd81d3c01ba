import type { Db } from '@leadforge/kit/db';
import { badRequest, conflict } from '@leadforge/kit/http';
import type { AdjustCreditsRequest, AdjustCreditsResponse } from '@leadforge/contracts';
import { InsufficientCredits, appendEntry, inTransaction } from './ledger.ts';

/** An administrator's signed change to a user's credits; never below zero, idempotent by key. */
export async function adjustCredits(db: Db, req: AdjustCreditsRequest): Promise<AdjustCreditsResponse> {
  if (req.delta === 0) throw badRequest('Enter a non-zero number of credits to add or remove', 'zero_adjustment');
  try {
    return await inTransaction(db, async (trx) => {
      const { entry } = await appendEntry(trx, {
        userId: req.user_id,
        delta: req.delta,
        reason: 'admin',
        ref: `admin:${req.actor_id}`,
        key: `admin:${req.idempotency_key}`,
        actorId: req.actor_id,
        note: req.reason,
      });
      if (entry.user_id !== req.user_id || entry.delta !== req.delta) {
        throw conflict('This idempotency_key was already used for a different adjustment', 'idempotency_key_reused');
      }
      return { user_id: entry.user_id, delta: entry.delta, balance: entry.balance_after, entry_id: Number(entry.id) };
    });
  } catch (err) {
    if (err instanceof InsufficientCredits) {
      throw badRequest(`Cannot remove ${err.need} credits: the user has only ${err.have}. A balance never goes below zero.`, 'balance_would_go_negative');
    }
    throw err;
  }
}

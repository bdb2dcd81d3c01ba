import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit/db';
import { badRequest, conflict, notFound } from '@leadforge/kit/http';
import type { ReservationResponse, ReserveRequest } from '@leadforge/contracts';
import { reservationsTotal } from '../metrics.ts';
import { InsufficientCredits, appendEntry, balanceOf, inTransaction, lockBalance, type Trx } from './ledger.ts';

interface ReservationRow {
  id: string;
  user_id: string;
  amount: number;
  charged: number | null;
  status: 'held' | 'settled' | 'released';
  ref: string;
  idempotency_key: string;
}

const view = (r: ReservationRow, balance: number): ReservationResponse => ({
  reservation_id: r.id,
  user_id: r.user_id,
  amount: r.amount,
  status: r.status,
  charged: r.charged ?? 0,
  balance,
});

/**
 * Holds `amount` credits for a job: taken from the balance now (so concurrent jobs cannot spend the
 * same credits), settled or released when the job ends. Idempotent by `idempotency_key`.
 */
export async function reserveCredits(db: Db, req: ReserveRequest): Promise<{ reservation: ReservationResponse; created: boolean }> {
  try {
    return await inTransaction(db, async (trx) => {
      // The reservation row first (its unique key settles a repeated request), then the ledger entry,
      // which takes the balance lock as late as possible: contention on one account is the hot path.
      const row: ReservationRow = { id: crypto.randomUUID(), user_id: req.user_id, amount: req.amount, charged: null, status: 'held', ref: req.ref, idempotency_key: req.idempotency_key };
      const inserted = await trx('credit_reservations').insert(row).onConflict('idempotency_key').ignore().returning('id');
      if (inserted.length === 0) {
        const existing: ReservationRow = await trx('credit_reservations').where({ idempotency_key: req.idempotency_key }).first();
        if (existing.user_id !== req.user_id || existing.amount !== req.amount) {
          throw conflict('This idempotency_key was already used for a different reservation', 'idempotency_key_reused');
        }
        return { reservation: view(existing, (await balanceOf(trx, req.user_id)) ?? 0), created: false };
      }
      const { entry } = await appendEntry(trx, { userId: req.user_id, delta: -req.amount, reason: 'generation', ref: req.ref, key: `reserve:${row.id}` });
      return { reservation: view(row, entry.balance_after), created: true };
    }).then((result) => {
      if (result.created) reservationsTotal.inc({ outcome: 'held' });
      return result;
    });
  } catch (err) {
    if (err instanceof InsufficientCredits) {
      reservationsTotal.inc({ outcome: 'insufficient' });
      throw err.toHttp();
    }
    throw err;
  }
}

async function finish(db: Db, id: string, charge: number, outcome: 'settled' | 'released'): Promise<ReservationResponse> {
  return inTransaction(db, async (trx: Trx) => {
    const r: ReservationRow | undefined = await trx('credit_reservations').where({ id }).forUpdate().first();
    if (!r) throw notFound('Reservation not found', 'reservation_not_found');
    if (charge > r.amount) throw badRequest(`charge (${charge}) cannot exceed the reserved amount (${r.amount})`, 'charge_exceeds_reservation');
    // Repeating the same settle or release answers the same; anything else is a conflict.
    if (r.status === outcome && (r.charged ?? 0) === charge) return view(r, await lockBalance(trx, r.user_id));
    if (r.status !== 'held') throw conflict(`This reservation is already ${r.status}`, 'reservation_finished');

    const giveBack = r.amount - charge;
    const balance = giveBack > 0
      ? (await appendEntry(trx, { userId: r.user_id, delta: giveBack, reason: 'generation_refund', ref: r.ref, key: `${outcome === 'settled' ? 'settle' : 'release'}:${r.id}` })).entry.balance_after
      : await lockBalance(trx, r.user_id);
    const [updated]: ReservationRow[] = await trx('credit_reservations').where({ id })
      .update({ status: outcome, charged: charge, finished_at: trx.fn.now() }).returning('*');
    trx.executionPromise.then(() => reservationsTotal.inc({ outcome }), () => undefined);
    return view(updated, balance);
  });
}

/** Charges `charge` credits of the reservation (the leads delivered) and gives the rest back. */
export const settleReservation = (db: Db, id: string, charge: number) => finish(db, id, charge, 'settled');

/** Gives every reserved credit back: a failed job costs nothing. */
export const releaseReservation = (db: Db, id: string) => finish(db, id, 0, 'released');

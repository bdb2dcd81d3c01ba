import type { Db } from '@leadforge/kit/db';
import { HttpError } from '@leadforge/kit/http';
import type { CreditHolds } from './creditHolds.ts';
import { findSearch } from './searchRecord.ts';

/**
 * Cleans up a search whose hold billing never confirmed (it did not answer in time). The hold may or
 * may not exist; asking again with the same idempotency key answers the existing one or makes it,
 * and releasing it then leaves the user exactly where they were. The search never started, so it goes.
 */
export async function abandonUnconfirmedHold(db: Db, holds: CreditHolds, searchId: string): Promise<void> {
  const search = await findSearch(db, searchId);
  if (!search || search.status !== 'reserving') return;
  let reservationId: string | undefined;
  try {
    reservationId = (await holds.hold(search.user_id, search.quantity, search.id)).reservation_id;
  } catch (err) {
    // A 4xx (402: not enough credits) means no hold exists under this key.
    if (!(err instanceof HttpError && err.statusCode >= 400 && err.statusCode < 500)) throw err;
  }
  if (reservationId) await holds.release(reservationId);
  await db('lead_searches').where({ id: search.id, status: 'reserving' }).del();
}

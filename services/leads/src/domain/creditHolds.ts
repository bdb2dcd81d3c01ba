import type { InternalClient } from '@leadforge/kit/http';
import type { BalanceResponse, ReservationResponse, ReserveRequest, SettleRequest } from '@leadforge/contracts';

const TIMEOUT_MS = 5000;

/**
 * The credits a search holds with billing (internal API, idempotent by key): held before the engine
 * starts, settled for the leads delivered, or released when the search delivered nothing. Each call
 * is safe to retry: billing keeps one hold per idempotency key, and answers a repeated settle or
 * release of the same amount as it did the first time.
 */
export class CreditHolds {
  constructor(private readonly internal: InternalClient) {}

  /** Holds `amount` credits for the search; the same search asking twice holds once (402 when short). */
  hold(userId: string, amount: number, searchId: string): Promise<ReservationResponse> {
    const body: ReserveRequest = { user_id: userId, amount, ref: `search:${searchId}`, idempotency_key: `search:${searchId}:hold` };
    return this.internal.call<ReservationResponse>('billing', 'POST', '/internal/reservations', { body, timeoutMs: TIMEOUT_MS, idempotent: true });
  }

  /** Charges `charge` of the held credits and gives the rest back. */
  settle(reservationId: string, charge: number): Promise<ReservationResponse> {
    const body: SettleRequest = { charge };
    return this.internal.call<ReservationResponse>('billing', 'POST', `/internal/reservations/${encodeURIComponent(reservationId)}/settle`, { body, timeoutMs: TIMEOUT_MS, idempotent: true });
  }

  /** The user's balance now (what a monitor's run may hold). */
  async balance(userId: string): Promise<number> {
    const answer = await this.internal.call<BalanceResponse>('billing', 'GET', `/internal/balances/${encodeURIComponent(userId)}`, { timeoutMs: TIMEOUT_MS });
    return answer.balance;
  }

  /** Gives every held credit back. */
  release(reservationId: string): Promise<ReservationResponse> {
    return this.internal.call<ReservationResponse>('billing', 'POST', `/internal/reservations/${encodeURIComponent(reservationId)}/release`, { body: {}, timeoutMs: TIMEOUT_MS, idempotent: true });
  }
}

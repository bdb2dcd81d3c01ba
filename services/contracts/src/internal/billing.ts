import { Type, type Static } from 'typebox';

/**
 * Billing's internal API (service token, never routed by the gateway). Every call that moves
 * credits carries an idempotency key: the same key twice applies once and answers the same.
 */
export const BalanceResponse = Type.Object({ user_id: Type.String(), balance: Type.Integer() });

/** POST /internal/reservations — holds `amount` credits for a job; 402 with the spec's detail when short. */
export const ReserveRequest = Type.Object({
  user_id: Type.String(),
  amount: Type.Integer({ minimum: 1, maximum: 100000 }),
  /** What the credits are for, e.g. `search:<id>`. */
  ref: Type.String({ maxLength: 200 }),
  idempotency_key: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });
export const ReservationResponse = Type.Object({
  reservation_id: Type.String(),
  user_id: Type.String(),
  amount: Type.Integer(),
  status: Type.Union([Type.Literal('held'), Type.Literal('settled'), Type.Literal('released')]),
  charged: Type.Integer(),
  balance: Type.Integer(),
});
export type ReservationResponse = Static<typeof ReservationResponse>;

/** POST /internal/reservations/:id/settle — charges `charge` (<= amount), releases the rest. */
export const SettleRequest = Type.Object({ charge: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
/** POST /internal/reservations/:id/release — releases everything (a failed job costs nothing). */

/** POST /internal/credits/adjust — admin adjustment; never below zero. */
export const AdjustCreditsRequest = Type.Object({
  user_id: Type.String(),
  delta: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  actor_id: Type.String(),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  idempotency_key: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });

/** POST /internal/purchases/:id/refund — admin refund within 7 days. */
export const RefundRequest = Type.Object({ actor_id: Type.String(), reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false });

export const insufficientCreditsDetail = (have: number, need: number) =>
  `Insufficient credits. You have ${have} credits but need ${need}.`;

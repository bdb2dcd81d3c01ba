import { Type, type Static } from 'typebox';

/**
 * Billing's internal API (service token, never routed by the gateway). Every call that moves
 * credits carries an idempotency key: the same key twice applies once and answers the same.
 */
export const BalanceResponse = Type.Object({ user_id: Type.String(), balance: Type.Integer() });
export type BalanceResponse = Static<typeof BalanceResponse>;

/** POST /internal/reservations — holds `amount` credits for a job; 402 with the spec's detail when short. */
export const ReserveRequest = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
  amount: Type.Integer({ minimum: 1, maximum: 100000 }),
  /** What the credits are for, e.g. `search:<id>`. */
  ref: Type.String({ minLength: 1, maxLength: 200 }),
  idempotency_key: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });
export type ReserveRequest = Static<typeof ReserveRequest>;
export const ReservationStatus = Type.Union([Type.Literal('held'), Type.Literal('settled'), Type.Literal('released')]);
export const ReservationResponse = Type.Object({
  reservation_id: Type.String(),
  user_id: Type.String(),
  amount: Type.Integer(),
  status: ReservationStatus,
  charged: Type.Integer(),
  balance: Type.Integer(),
});
export type ReservationResponse = Static<typeof ReservationResponse>;

/** POST /internal/reservations/:id/settle — charges `charge` (<= amount), releases the rest. Repeating the same settle is harmless. */
export const SettleRequest = Type.Object({ charge: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export type SettleRequest = Static<typeof SettleRequest>;
/** POST /internal/reservations/:id/release — releases everything (a failed job costs nothing). */

/** POST /internal/credits/adjust — admin adjustment; never below zero (400 with a detail instead). */
export const AdjustCreditsRequest = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
  delta: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  actor_id: Type.String({ minLength: 1, maxLength: 64 }),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  idempotency_key: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });
export type AdjustCreditsRequest = Static<typeof AdjustCreditsRequest>;
export const AdjustCreditsResponse = Type.Object({
  user_id: Type.String(),
  delta: Type.Integer(),
  balance: Type.Integer(),
  entry_id: Type.Integer(),
});
export type AdjustCreditsResponse = Static<typeof AdjustCreditsResponse>;

/** POST /internal/purchases/:id/refund — admin refund within 7 days, through PayPal, credits taken back. */
export const RefundRequest = Type.Object({
  actor_id: Type.String({ minLength: 1, maxLength: 64 }),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
}, { additionalProperties: false });
export type RefundRequest = Static<typeof RefundRequest>;
/** Credits already spent cannot be taken back: the balance goes to zero and the rest is the shortfall. */
export const RefundResponse = Type.Object({
  purchase_id: Type.String(),
  status: Type.Literal('refunded'),
  amount: Type.Number(),
  credits_reversed: Type.Integer(),
  credits_shortfall: Type.Integer(),
  refunded_at: Type.String(),
});
export type RefundResponse = Static<typeof RefundResponse>;

/** GET /internal/users/:userId/purchases — a user's purchases, newest first (admin panel). */
export const InternalPurchase = Type.Object({
  id: Type.String(),
  user_id: Type.Union([Type.String(), Type.Null()]),
  plan_id: Type.String(),
  amount: Type.Number(),
  credits: Type.Integer(),
  status: Type.String(),
  provider_mode: Type.String(),
  created_at: Type.String(),
  completed_at: Type.Union([Type.String(), Type.Null()]),
  refundable_until: Type.Union([Type.String(), Type.Null()]),
});
export type InternalPurchase = Static<typeof InternalPurchase>;

export const insufficientCreditsDetail = (have: number, need: number) =>
  `Insufficient credits. You have ${have} credits but need ${need}.`;

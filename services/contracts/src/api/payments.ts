import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

export const PlanId = Type.Union([Type.Literal('starter'), Type.Literal('growth'), Type.Literal('agency')]);
export type PlanId = Static<typeof PlanId>;

export interface Plan { id: PlanId; name: string; price: number; credits: number; bonus: number; description: string }

/** The fixed plan table; the server decides every price from it. */
export const PLANS: Record<PlanId, Plan> = {
  starter: { id: 'starter', name: 'Starter', price: 19, credits: 100, bonus: 0, description: '100 leads' },
  growth: { id: 'growth', name: 'Growth', price: 49, credits: 330, bonus: 30, description: '300 leads + 30 bonus' },
  agency: { id: 'agency', name: 'Agency', price: 99, credits: 1100, bonus: 100, description: '1,000 leads + 100 bonus' },
};

export const PROMO_CBC500 = { plan: 'cbc500_promo', code: 'CBC500', price: 19, regularPrice: 149, credits: 500 } as const;

export const Purchase = Type.Object({
  id: Type.String(),
  plan_id: Type.String(),
  amount: Type.Number(),
  credits: Type.Integer(),
  status: Type.String(),
  completed_at: Type.Union([Timestamp, Type.Null()]),
});
export type Purchase = Static<typeof Purchase>;

export const PaymentHistoryResponse = Type.Object({ purchases: Type.Array(Purchase) });

export const CreatePaymentRequest = Type.Object({
  plan_id: PlanId,
  return_url: Type.Optional(Type.String({ maxLength: 2048 })),
  cancel_url: Type.Optional(Type.String({ maxLength: 2048 })),
}, { additionalProperties: false });
export const CreatePaymentResponse = Type.Object({ payment_id: Type.String(), approve_url: Type.Optional(Type.String()) });

export const ExecutePaymentRequest = Type.Object({
  payment_id: Type.String({ minLength: 1, maxLength: 64 }),
  payer_id: Type.Optional(Type.String({ maxLength: 64 })),
}, { additionalProperties: false });
export const ExecutePaymentResponse = Type.Object({ success: Type.Boolean(), credits_added: Type.Integer() });

export const CreatePromoOrderRequest = Type.Object({
  plan: Type.Literal('cbc500_promo'),
  amount: Type.Optional(Type.Number()),
  description: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
export const CreatePromoOrderResponse = Type.Object({ order_id: Type.String() });

export const CompletePromoRequest = Type.Object({
  order_id: Type.String({ minLength: 1, maxLength: 64 }),
  plan: Type.Literal('cbc500_promo'),
  promo_code: Type.Literal('CBC500'),
}, { additionalProperties: false });

export const PaymentsConfigResponse = Type.Object({
  client_id: Type.String(),
  mode: Type.Union([Type.Literal('sandbox'), Type.Literal('live'), Type.Literal('test')]),
  currency: Type.Literal('USD'),
});

export const PaypalConfigResponse = Type.Object({ sandbox_mode: Type.Boolean(), client_id: Type.String() });
export const PaypalConfigRequest = Type.Object({ sandbox_mode: Type.Boolean() }, { additionalProperties: false });

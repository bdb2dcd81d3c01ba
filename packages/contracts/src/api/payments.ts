import { Type, type Static } from 'typebox';
import { ActivityQuery, MessageBody, Timestamp } from './common.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

export const PLAN_IDS = ['starter', 'growth', 'agency'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
/** A plan id; anything else is refused with the sentence below (never a price from the client). */
export const PlanId = Type.Unsafe<PlanId>(Type.Enum([...PLAN_IDS], { errorMessage: 'Unknown plan: choose starter, growth or agency' }));

export interface Plan { id: PlanId; name: string; price: number; credits: number; bonus: number; description: string }

/** The fixed plan table; the server decides every price from it. */
export const PLANS: Record<PlanId, Plan> = {
  starter: { id: 'starter', name: 'Starter', price: 19, credits: 100, bonus: 0, description: '100 leads' },
  growth: { id: 'growth', name: 'Growth', price: 49, credits: 330, bonus: 30, description: '300 leads + 30 bonus' },
  agency: { id: 'agency', name: 'Agency', price: 99, credits: 1100, bonus: 100, description: '1,000 leads + 100 bonus' },
};

export const PROMO_CBC500 = { plan: 'cbc500_promo', code: 'CBC500', price: 19, regularPrice: 149, credits: 500 } as const;

/** Which checkout takes a payment: PayPal sandbox, PayPal live, or the built-in test checkout. */
export const PaymentMode = Type.Union([Type.Literal('sandbox'), Type.Literal('live'), Type.Literal('test')]);
export type PaymentMode = Static<typeof PaymentMode>;

/** The 7-day refund: days after completion in which a buyer may ask for their money back. */
export const REFUND_WINDOW_DAYS = 7;

/**
 * A buyer's refund request: `pending` waits for an administrator, `processing` has its credits taken
 * back and the provider's refund under way, `refunded` and `declined` are final.
 */
export const RefundRequestStatus = Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('refunded'), Type.Literal('declined')]);
export type RefundRequestStatus = Static<typeof RefundRequestStatus>;
export const RefundRequestView = Type.Object({
  id: Type.String(),
  purchase_id: Type.String(),
  status: RefundRequestStatus,
  /** Refunded at once (the pack's credits were unspent), without an administrator. */
  instant: Type.Boolean(),
  reason: Type.Union([Type.String(), Type.Null()]),
  requested_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  /** Dollars going (or gone) back; null until the refund starts. */
  amount_refunded: Type.Union([Type.Number(), Type.Null()]),
  credits_reversed: Type.Union([Type.Integer(), Type.Null()]),
  decision_reason: Type.Union([Type.String(), Type.Null()]),
});
export type RefundRequestView = Static<typeof RefundRequestView>;

export const Purchase = Type.Object({
  id: Type.String(),
  plan_id: Type.String(),
  amount: Type.Number(),
  credits: Type.Integer(),
  status: Type.String(),
  completed_at: Type.Union([Timestamp, Type.Null()]),
  /** Until when the buyer may ask for a refund; null when they may not (the 7 days passed, not completed, or refunded). */
  refundable_until: Type.Union([Timestamp, Type.Null()]),
  refund_request: Type.Union([RefundRequestView, Type.Null()]),
});
export type Purchase = Static<typeof Purchase>;

export const PurchaseIdParams = Type.Object({
  purchaseId: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', errorMessage: 'purchaseId must be a purchase id' }),
});
const RefundReason = Type.String({ minLength: 3, maxLength: 500, pattern: '\\S', errorMessage: 'Please give a reason of 3 to 500 characters' });
export const RequestRefundBody = Type.Object({ reason: RefundReason }, { additionalProperties: false });
export type RequestRefundBody = Static<typeof RequestRefundBody>;
export const RequestRefundResponse = Type.Object({ request: RefundRequestView, message: Type.String() });
export type RequestRefundResponse = Static<typeof RequestRefundResponse>;

/** The admin panel's Refunds queue: a request with its buyer and purchase. */
export const AdminRefundRequest = Type.Intersect([RefundRequestView, Type.Object({
  user_id: Type.String(),
  user_email: Type.Union([Type.String(), Type.Null()]),
  user_name: Type.Union([Type.String(), Type.Null()]),
  plan_id: Type.String(),
  purchase_amount: Type.Number(),
  purchase_credits: Type.Integer(),
  purchased_at: Type.Union([Timestamp, Type.Null()]),
  /** The credits of the pack still in the buyer's balance now: what a refund can take back. */
  unspent_credits: Type.Integer(),
  /** Which checkout took the payment, so which one refunds it: PayPal sandbox, live, or the built-in test checkout. */
  provider_mode: PaymentMode,
  decided_by: Type.Union([Type.String(), Type.Null()]),
  /** The provider's refund id once it refunded. */
  refund_id: Type.Union([Type.String(), Type.Null()]),
  /** Why the last refund attempt did not finish (the provider unreachable or refusing); retrying is safe. */
  last_error: Type.Union([Type.String(), Type.Null()]),
})]);
export type AdminRefundRequest = Static<typeof AdminRefundRequest>;
export const AdminRefundsQuery = Type.Object({
  status: Type.Optional(Type.Union([RefundRequestStatus, Type.Literal('open'), Type.Literal('all')], { errorMessage: 'status must be open, pending, processing, refunded, declined or all' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, errorMessage: 'page must be a whole number from 1' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, errorMessage: 'page_size must be a whole number from 1 to 100' })),
}, { additionalProperties: false });
export const AdminRefundsResponse = Type.Object({
  requests: Type.Array(AdminRefundRequest),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
  /** Requests waiting for a decision (pending) or a retry (processing). */
  open: Type.Integer(),
});
export const RefundRequestIdParams = Type.Object({
  requestId: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', errorMessage: 'requestId must be a refund request id' }),
});
/** Approve: in full, or `amount` dollars (a partial refund; its share of the pack's credits is taken back). */
export const ApproveRefundBody = Type.Object({
  amount: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100000, multipleOf: 0.01, errorMessage: 'amount must be a positive dollar amount with at most 2 decimals' })),
  reason: RefundReason,
}, { additionalProperties: false });
export type ApproveRefundBody = Static<typeof ApproveRefundBody>;
export const DeclineRefundBody = Type.Object({ reason: RefundReason }, { additionalProperties: false });
export const AdminRefundDecisionResponse = Type.Object({ request: AdminRefundRequest, message: Type.String() });

export const PaymentHistoryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, errorMessage: 'limit must be a whole number from 1 to 100' })),
}, { additionalProperties: false });
export const PaymentHistoryResponse = Type.Object({ purchases: Type.Array(Purchase) });

const ReturnUrl = Type.String({ maxLength: 2048, pattern: '^https?://', errorMessage: 'return_url and cancel_url must be http(s) URLs' });

/** Only a plan id (and where PayPal sends the buyer back): the amount always comes from PLANS. */
export const CreatePaymentRequest = Type.Object({
  plan_id: PlanId,
  return_url: Type.Optional(ReturnUrl),
  cancel_url: Type.Optional(ReturnUrl),
}, { additionalProperties: false });
export type CreatePaymentRequest = Static<typeof CreatePaymentRequest>;
/** `payment_id` is the provider's order id, used as the order id in its checkout. */
export const CreatePaymentResponse = Type.Object({ payment_id: Type.String(), approve_url: Type.Optional(Type.String()) });

export const ExecutePaymentRequest = Type.Object({
  payment_id: Type.String({ minLength: 1, maxLength: 64, errorMessage: 'payment_id is required' }),
  payer_id: Type.Optional(Type.String({ maxLength: 64 })),
}, { additionalProperties: false });
export type ExecutePaymentRequest = Static<typeof ExecutePaymentRequest>;
/**
 * `success` with the credits added, or `status: 'pending'` when PayPal holds the capture for review
 * (the credits follow with PayPal's PAYMENT.CAPTURE.COMPLETED webhook).
 */
export const ExecutePaymentResponse = Type.Object({
  success: Type.Boolean(),
  credits_added: Type.Integer(),
  status: Type.Optional(Type.Union([Type.Literal('completed'), Type.Literal('pending')])),
  message: Type.Optional(Type.String()),
});
export type ExecutePaymentResponse = Static<typeof ExecutePaymentResponse>;

/** The spec's promo call sends the amount; the server accepts only the promo's own price. */
export const CreatePromoOrderRequest = Type.Object({
  plan: Type.Literal('cbc500_promo', { errorMessage: 'plan must be cbc500_promo' }),
  amount: Type.Optional(Type.Number({ errorMessage: 'amount must be a number' })),
  description: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
export type CreatePromoOrderRequest = Static<typeof CreatePromoOrderRequest>;
/** `claim_token` binds the order to the buyer: only a registration presenting it gets the credits. */
export const CreatePromoOrderResponse = Type.Object({ order_id: Type.String(), claim_token: Type.String(), approve_url: Type.Optional(Type.String()) });

export const CompletePromoRequest = Type.Object({
  order_id: Type.String({ minLength: 1, maxLength: 64, errorMessage: 'order_id is required' }),
  plan: Type.Literal('cbc500_promo', { errorMessage: 'plan must be cbc500_promo' }),
  promo_code: Type.Literal('CBC500', { errorMessage: 'promo_code must be CBC500' }),
}, { additionalProperties: false });
export type CompletePromoRequest = Static<typeof CompletePromoRequest>;
export const CompletePromoResponse = Type.Object({
  success: Type.Boolean(),
  order_id: Type.String(),
  status: Type.Union([Type.Literal('completed'), Type.Literal('pending')]),
});

/** What became of the promo order a new account registered with (GET /api/payments/promo-orders/:orderId). */
export const PromoClaimOutcome = Type.Union([
  Type.Literal('processing'),
  Type.Literal('claimed'),
  Type.Literal('claimed_pending_payment'),
  Type.Literal('already_claimed'),
  Type.Literal('not_found'),
  Type.Literal('not_paid'),
  Type.Literal('not_claimed'),
  Type.Literal('claim_refused'),
]);
export type PromoClaimOutcome = Static<typeof PromoClaimOutcome>;
export const PromoClaimResponse = Type.Object({
  order_id: Type.String(),
  outcome: PromoClaimOutcome,
  credits: Type.Integer(),
  message: Type.String(),
});
export type PromoClaimResponse = Static<typeof PromoClaimResponse>;

/** Public: what the browser needs to load PayPal's SDK, or `mode: 'test'` for the built-in test checkout. */
export const PaymentsConfigResponse = Type.Object({
  client_id: Type.String(),
  mode: PaymentMode,
  currency: Type.Literal('USD'),
  intent: Type.Literal('capture'),
});
export type PaymentsConfigResponse = Static<typeof PaymentsConfigResponse>;

/** The built-in test checkout's approval step (local mode without PayPal credentials only). */
export const TestCheckoutApproveResponse = Type.Object({ order_id: Type.String(), status: Type.Literal('APPROVED'), payer_id: Type.String() });

export const PaypalConfigResponse = Type.Object({
  sandbox_mode: Type.Boolean(),
  client_id: Type.String(),
  mode: PaymentMode,
  sandbox_configured: Type.Boolean(),
  live_configured: Type.Boolean(),
});
export type PaypalConfigResponse = Static<typeof PaypalConfigResponse>;
export const PaypalConfigRequest = Type.Object({
  sandbox_mode: Type.Boolean({ errorMessage: 'sandbox_mode must be true or false' }),
}, { additionalProperties: false });

/** The signed-in user's credit balance, from billing's ledger (the figure the SPA shows). */
export const CreditBalanceResponse = Type.Object({ balance: Type.Integer({ minimum: 0 }) });
export type CreditBalanceResponse = Static<typeof CreditBalanceResponse>;

export const WebhookAck = Type.Object({ received: Type.Boolean(), outcome: Type.String() });

/** A PayPal order (or a test checkout's), as in `/api/payments/promo-orders/:orderId`. */
export const OrderIdParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });

/** One UTC day of the signed-in user's credits, from the ledger. */
export const CreditActivityDay = Type.Object({
  date: Type.String(),
  /** Credits added by purchases and promo claims that day. */
  bought: Type.Integer(),
  /** Credits charged for searches started that day (each search's hold less what it gave back). */
  used: Type.Integer(),
});
export type CreditActivityDay = Static<typeof CreditActivityDay>;

/** The last `days` UTC days, oldest first, days without movement included as zeros. */
export const CreditActivityResponse = Type.Object({ days: Type.Array(CreditActivityDay) });
export type CreditActivityResponse = Static<typeof CreditActivityResponse>;

const paymentErrors = errorReplies(400, 401, 402, 404, 409, 422, 429, 502, 503);
const promoErrors = errorReplies(400, 402, 404, 409, 422, 429, 502, 503);
const adminErrors = errorReplies(400, 401, 403, 503);
const refundDecisionErrors = errorReplies(400, 401, 403, 404, 409, 502, 503);

/** Billing's public routes: checkout, the CBC500 promo, PayPal's notifications, the admin's PayPal mode. */
export const PAYMENT_ROUTES = declareRoutes('billing', {
  config: { method: 'GET', path: '/api/payments/config', access: 'public', schema: { response: { 200: PaymentsConfigResponse } } },
  creditActivity: { method: 'GET', path: '/api/payments/credit-activity', access: 'user', schema: { querystring: ActivityQuery, response: { 200: CreditActivityResponse, ...paymentErrors } } },
  balance: { method: 'GET', path: '/api/payments/balance', access: 'user', schema: { response: { 200: CreditBalanceResponse, ...paymentErrors } } },
  history: { method: 'GET', path: '/api/payments/history', access: 'user', schema: { querystring: PaymentHistoryQuery, response: { 200: PaymentHistoryResponse, ...paymentErrors } } },
  create: { method: 'POST', path: '/api/payments/create', access: 'user', schema: { body: CreatePaymentRequest, response: { 200: CreatePaymentResponse, ...paymentErrors } } },
  execute: {
    method: 'POST', path: '/api/payments/execute', access: 'user',
    schema: { body: ExecutePaymentRequest, response: { 200: ExecutePaymentResponse, 202: ExecutePaymentResponse, ...paymentErrors } },
  },
  createPromoOrder: { method: 'POST', path: '/api/payments/create-order', access: 'public', schema: { body: CreatePromoOrderRequest, response: { 200: CreatePromoOrderResponse, ...promoErrors } } },
  completePromoPayment: { method: 'POST', path: '/api/payments/complete-payment', access: 'public', schema: { body: CompletePromoRequest, response: { 200: CompletePromoResponse, ...promoErrors } } },
  /** The body is read as the exact text PayPal signed, so it has no body schema. */
  webhook: { method: 'POST', path: '/api/payments/webhook', access: 'public', schema: { response: { 200: WebhookAck, ...errorReplies(400, 502) } } },
  promoOrder: { method: 'GET', path: '/api/payments/promo-orders/:orderId', access: 'user', schema: { params: OrderIdParams, response: { 200: PromoClaimResponse, ...paymentErrors } } },
  approveTestCheckout: {
    method: 'POST', path: '/api/payments/test-checkout/:orderId/approve', access: 'public',
    schema: { params: OrderIdParams, response: { 200: TestCheckoutApproveResponse, ...errorReplies(404, 429) } },
  },
  requestRefund: {
    method: 'POST', path: '/api/payments/purchases/:purchaseId/refund-request', access: 'user',
    schema: { params: PurchaseIdParams, body: RequestRefundBody, response: { 200: RequestRefundResponse, ...paymentErrors } },
  },
  refundRequests: { method: 'GET', path: '/api/admin/refunds', access: 'admin', schema: { querystring: AdminRefundsQuery, response: { 200: AdminRefundsResponse, ...adminErrors } } },
  approveRefund: {
    method: 'POST', path: '/api/admin/refunds/:requestId/approve', access: 'admin',
    schema: { params: RefundRequestIdParams, body: ApproveRefundBody, response: { 200: AdminRefundDecisionResponse, ...refundDecisionErrors } },
  },
  declineRefund: {
    method: 'POST', path: '/api/admin/refunds/:requestId/decline', access: 'admin',
    schema: { params: RefundRequestIdParams, body: DeclineRefundBody, response: { 200: AdminRefundDecisionResponse, ...refundDecisionErrors } },
  },
  paypalConfig: { method: 'GET', path: '/api/admin/paypal-config', access: 'admin', schema: { response: { 200: PaypalConfigResponse, ...adminErrors } } },
  setPaypalConfig: { method: 'POST', path: '/api/admin/paypal-config', access: 'admin', schema: { body: PaypalConfigRequest, response: { 200: MessageBody, ...adminErrors } } },
});

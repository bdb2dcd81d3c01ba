import { Type, type Static } from 'typebox';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

/** Business constants of the affiliate programme (spec section 9). */
export const COMMISSION_RATE = 0.1;
/** The same rate in basis points, so commissions are computed on integer cents. */
export const COMMISSION_RATE_BPS = 1000;
export const MINIMUM_PAYOUT_USD = 50;
/** A referral link's visit attributes a registration for this long (the "60-day cookie"). */
export const REFERRAL_WINDOW_DAYS = 60;
/** A commission is held for the refund window before it can be paid out. */
export const COMMISSION_HOLD_DAYS = 7;

/** An application as its applicant and the admins see it; nobody needs one to earn (every account has a link). */
export const AffiliateApplication = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  website: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
  submitted_at: Type.String(),
});
export type AffiliateApplication = Static<typeof AffiliateApplication>;

/** Where payouts go: the address the affiliate set, else their latest application's, else their account's. */
export const PayoutAddress = Type.Object({
  payout_email: Type.String(),
  payout_email_source: Type.Union([Type.Literal('set'), Type.Literal('application'), Type.Literal('account')]),
});

export const AffiliateStatsResponse = Type.Object({
  total_referrals: Type.Integer(),
  /** Dollars earned and not reversed: pending + payable + paid. */
  total_commissions: Type.Number(),
  referral_code: Type.String(),
  referral_link: Type.String(),
  ...PayoutAddress.properties,
  /** The caller's latest application, or null when they have not applied. */
  application: Type.Union([AffiliateApplication, Type.Null()]),
});
export type AffiliateStatsResponse = Static<typeof AffiliateStatsResponse>;

const REQUIRED_FIELDS = 'Please fill in all required fields';

export const AffiliateApplyRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120, errorMessage: { minLength: REQUIRED_FIELDS, maxLength: 'Name is too long (at most 120 characters)' } }),
  email: Type.String({ minLength: 1, maxLength: 254, format: 'email', errorMessage: { minLength: REQUIRED_FIELDS, format: 'Please enter a valid email address', maxLength: 'Email is too long' } }),
  website: Type.Optional(Type.String({ maxLength: 2048, errorMessage: { maxLength: 'Website address is too long' } })),
  message: Type.Optional(Type.String({ maxLength: 5000, errorMessage: { maxLength: 'Message is too long (at most 5,000 characters)' } })),
}, { additionalProperties: false, errorMessage: { required: REQUIRED_FIELDS } });
export type AffiliateApplyRequest = Static<typeof AffiliateApplyRequest>;

export const AffiliateApplyResponse = Type.Object({ message: Type.String() });

/** POST /api/affiliate/referral-visits: a visitor landed with `?ref=CODE`. */
export const ReferralVisitRequest = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 32, errorMessage: { minLength: 'code is required', maxLength: 'Unknown referral code' } }),
}, { additionalProperties: false });
export const ReferralVisitResponse = Type.Object({
  /** Signed `CODE.issuedAt.signature`; the SPA keeps it in the lf_ref cookie and registers with it. */
  referral_token: Type.String(),
  expires_at: Type.String(),
  max_age_seconds: Type.Integer(),
});
export type ReferralVisitResponse = Static<typeof ReferralVisitResponse>;

export const CommissionStatus = Type.Union([Type.Literal('pending'), Type.Literal('payable'), Type.Literal('paid'), Type.Literal('reversed')]);
export type CommissionStatus = Static<typeof CommissionStatus>;

export const Commission = Type.Object({
  id: Type.String(),
  purchase_id: Type.String(),
  plan_id: Type.String(),
  /** The purchase amount in USD (after any refund). */
  sale_amount: Type.Number(),
  /** The commission in USD. */
  amount: Type.Number(),
  status: CommissionStatus,
  earned_at: Type.String(),
  /** When the refund window closes and the commission becomes payable. */
  payable_at: Type.String(),
  paid_at: Type.Union([Type.String(), Type.Null()]),
  /** Why a commission was refused (it stays, reversed at $0): `shared_payer`, the buyer paid with the referrer's own PayPal account. */
  refused_reason: Type.Optional(Type.Literal('shared_payer')),
});
export type Commission = Static<typeof Commission>;

export const CommissionsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
}, { additionalProperties: false });

export const CommissionsResponse = Type.Object({
  commissions: Type.Array(Commission),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
  /** Dollars by status. */
  totals: Type.Object({ pending: Type.Number(), payable: Type.Number(), paid: Type.Number() }),
  next_payout: Type.Object({
    /** The first day of next month (UTC), YYYY-MM-DD: payouts run monthly. */
    date: Type.String(),
    /** What the next payout would pay: commissions whose refund window has closed by then, net of clawbacks. */
    eligible_amount: Type.Number(),
    minimum: Type.Number(),
    /** Whether eligible_amount reaches the minimum; below it the balance rolls over. */
    threshold_reached: Type.Boolean(),
  }),
  commission_rate: Type.Number(),
});
export type CommissionsResponse = Static<typeof CommissionsResponse>;

/** Admin: POST /api/admin/affiliate-payouts runs (or resumes) the monthly PayPal payout batch. */
export const PayoutBatchRequest = Type.Object({
  period: Type.Optional(Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', errorMessage: 'period must be a month written YYYY-MM' })),
}, { additionalProperties: false });

export const PayoutBatch = Type.Object({
  id: Type.String(),
  period: Type.String(),
  sender_batch_id: Type.String(),
  /** allocated -> submitting -> submitted; failed can be retried; empty when nobody reached the minimum. */
  status: Type.Union([Type.Literal('allocated'), Type.Literal('submitting'), Type.Literal('submitted'), Type.Literal('failed'), Type.Literal('empty')]),
  /** `paypal`, or `test` for the local stand-in that moves no money. */
  mode: Type.Union([Type.Literal('paypal'), Type.Literal('test')]),
  paypal_batch_id: Type.Union([Type.String(), Type.Null()]),
  paypal_batch_status: Type.Union([Type.String(), Type.Null()]),
  total: Type.Number(),
  items: Type.Array(Type.Object({ referrer_id: Type.String(), receiver: Type.String(), amount: Type.Number(), commissions: Type.Integer() })),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  submitted_at: Type.Union([Type.String(), Type.Null()]),
});
export type PayoutBatch = Static<typeof PayoutBatch>;

export const PayoutBatchesResponse = Type.Object({ batches: Type.Array(PayoutBatch) });
export type PayoutBatchesResponse = Static<typeof PayoutBatchesResponse>;

/** PUT /api/affiliate/payout-email: the PayPal account commissions are paid to. */
export const PayoutEmailRequest = Type.Object({
  paypal_email: Type.String({ minLength: 1, maxLength: 254, format: 'email', errorMessage: { minLength: 'Please enter your PayPal email address', format: 'Please enter a valid email address', maxLength: 'Email is too long' } }),
}, { additionalProperties: false, errorMessage: { required: 'Please enter your PayPal email address' } });
export type PayoutEmailRequest = Static<typeof PayoutEmailRequest>;

/** Admin: GET /api/admin/affiliate-applications, newest first. */
export const AffiliateApplicationsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
}, { additionalProperties: false });
export const AffiliateApplicationsResponse = Type.Object({
  applications: Type.Array(Type.Object({ ...AffiliateApplication.properties, user_id: Type.Union([Type.String(), Type.Null()]) })),
  page: Type.Object({ page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer() }),
});
export type AffiliateApplicationsResponse = Static<typeof AffiliateApplicationsResponse>;

const adminErrors = errorReplies(400, 401, 403);

/** The affiliate programme: a user's referral figures and payout address, applications, referral visits, the admin's payouts. */
export const AFFILIATE_ROUTES = declareRoutes('affiliate', {
  stats: { method: 'GET', path: '/api/affiliate/stats', access: 'user', schema: { response: { 200: AffiliateStatsResponse, ...errorReplies(401) } } },
  commissions: { method: 'GET', path: '/api/affiliate/commissions', access: 'user', schema: { querystring: CommissionsQuery, response: { 200: CommissionsResponse, ...errorReplies(400, 401) } } },
  apply: { method: 'POST', path: '/api/affiliate/apply', access: 'public', schema: { body: AffiliateApplyRequest, response: { 201: AffiliateApplyResponse, ...errorReplies(400, 429) } } },
  referralVisit: {
    method: 'POST', path: '/api/affiliate/referral-visits', access: 'public',
    schema: { body: ReferralVisitRequest, response: { 201: ReferralVisitResponse, ...errorReplies(400, 404, 429) } },
  },
  payouts: { method: 'GET', path: '/api/admin/affiliate-payouts', access: 'admin', schema: { response: { 200: PayoutBatchesResponse, ...adminErrors } } },
  runPayout: { method: 'POST', path: '/api/admin/affiliate-payouts', access: 'admin', schema: { body: PayoutBatchRequest, response: { 200: PayoutBatch, ...adminErrors } } },
  setPayoutEmail: { method: 'PUT', path: '/api/affiliate/payout-email', access: 'user', schema: { body: PayoutEmailRequest, response: { 200: PayoutAddress, ...errorReplies(400, 401) } } },
  applications: {
    method: 'GET', path: '/api/admin/affiliate-applications', access: 'admin',
    schema: { querystring: AffiliateApplicationsQuery, response: { 200: AffiliateApplicationsResponse, ...adminErrors } },
  },
});

import type { RefundRequestView, RequestRefundResponse } from '@leadforge/contracts';
import { api } from '../api/client';
import { rememberPromoClaimToken } from './promoClaimToken';

/** What the browser needs to start a checkout: PayPal's SDK (sandbox or live) or the built-in test checkout. */
export interface PaymentConfig {
  client_id: string;
  mode: 'sandbox' | 'live' | 'test';
  currency: 'USD';
  intent: 'capture';
}

export interface Purchase {
  id: string;
  plan_id: string;
  amount: number;
  credits: number;
  status: string;
  completed_at: string | null;
  /** Until when a refund may be requested; null when it may not. */
  refundable_until: string | null;
  refund_request: RefundRequestView | null;
}

export interface ExecuteResult {
  success: boolean;
  credits_added: number;
  status?: 'completed' | 'pending';
  message?: string;
}

export type PromoClaimOutcome = 'processing' | 'claimed' | 'claimed_pending_payment' | 'already_claimed' | 'not_found' | 'not_paid' | 'not_claimed' | 'claim_refused';

export interface PromoClaim {
  order_id: string;
  outcome: PromoClaimOutcome;
  credits: number;
  message: string;
}

export const PROMO_PLAN = 'cbc500_promo';
export const PROMO_CODE = 'CBC500';

export const paymentKeys = {
  /** The checkout's mode and client id: public, and changed only by an admin's switch. */
  config: ['payments', 'config'] as const,
  history: ['payments', 'history'] as const,
};

export async function fetchPaymentConfig(): Promise<PaymentConfig> {
  return (await api.get<PaymentConfig>('/api/payments/config')).data;
}

export async function fetchPurchaseHistory(): Promise<Purchase[]> {
  return (await api.get<{ purchases: Purchase[] }>('/api/payments/history', { params: { limit: 5 } })).data.purchases;
}

/** Creates the provider order for a plan; the server decides the price. Returns the provider's order id. */
export async function createPayment(planId: string): Promise<string> {
  const here = `${window.location.origin}/credits`;
  const { data } = await api.post<{ payment_id: string }>('/api/payments/create', { plan_id: planId, return_url: here, cancel_url: here });
  return data.payment_id;
}

export async function executePayment(paymentId: string, payerId: string | null | undefined): Promise<ExecuteResult> {
  const { data } = await api.post<ExecuteResult>('/api/payments/execute', { payment_id: paymentId, ...(payerId ? { payer_id: payerId } : {}) });
  return data;
}

/** Creates the promo order and keeps its claim token in this browser, for the registration that follows. */
export async function createPromoOrder(): Promise<string> {
  const { data } = await api.post<{ order_id: string; claim_token: string }>('/api/payments/create-order', { plan: PROMO_PLAN, amount: 19, description: 'CBC Special - 500 leads' });
  rememberPromoClaimToken(data.order_id, data.claim_token);
  return data.order_id;
}

export async function completePromoPayment(orderId: string): Promise<{ success: boolean; status: 'completed' | 'pending' }> {
  const { data } = await api.post<{ success: boolean; status: 'completed' | 'pending' }>('/api/payments/complete-payment', { order_id: orderId, plan: PROMO_PLAN, promo_code: PROMO_CODE });
  return data;
}

/** The buyer's approval in the built-in test checkout (PayPal records it in its own window otherwise). */
export async function approveTestCheckout(orderId: string): Promise<string> {
  const { data } = await api.post<{ payer_id: string }>(`/api/payments/test-checkout/${encodeURIComponent(orderId)}/approve`);
  return data.payer_id;
}

export async function fetchPromoClaim(orderId: string): Promise<PromoClaim> {
  return (await api.get<PromoClaim>(`/api/payments/promo-orders/${encodeURIComponent(orderId)}`)).data;
}

/** Asks for the 7-day refund of a purchase: refunded at once when its credits are unspent, else reviewed by an administrator. */
export async function requestRefund(purchaseId: string, reason: string): Promise<RequestRefundResponse> {
  return (await api.post<RequestRefundResponse>(`/api/payments/purchases/${encodeURIComponent(purchaseId)}/refund-request`, { reason })).data;
}

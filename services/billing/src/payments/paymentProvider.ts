import type { Payer } from '@leadforge/kit/events';
import type { PaymentMode } from '@leadforge/contracts';

/** What we ask the provider to charge: the amount always comes from our plan table. */
export interface OrderRequest {
  purchaseId: string;
  amountCents: number;
  description: string;
  returnUrl?: string;
  cancelUrl?: string;
}

export interface ProviderOrder {
  id: string;
  status: string;
  approveUrl?: string;
}

/** A capture as the provider reports it, reduced to what decides a grant. */
export interface CaptureView {
  orderId: string;
  captureId: string;
  /** COMPLETED grants; PENDING waits for the webhook; DECLINED / FAILED never grant. */
  status: string;
  /** Exact cents, or null when the provider's value is not a plain 2-decimal amount. */
  amountCents: number | null;
  currency: string;
  /** Our purchase id, when the provider echoes it. */
  customId?: string;
  /** Who paid, when the provider says (an order's capture does; a capture webhook does not). */
  payer?: Payer;
}

/** An order as the provider holds it: what the buyer approved, and its capture once there is one. */
export interface OrderView {
  id: string;
  status: string;
  amountCents: number | null;
  currency: string;
  capture?: CaptureView;
}

export type CaptureOutcome =
  | { kind: 'captured'; capture: CaptureView }
  | { kind: 'not_approved' }
  | { kind: 'declined'; issue: string }
  | { kind: 'not_found' };

export interface RefundResult {
  refundId: string | null;
  status: string;
}

/** Headers and exact bytes of a webhook delivery, for the provider to verify. */
export interface WebhookDelivery {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/**
 * A PayPal-shaped payment provider: PayPal itself (sandbox or live), or the built-in test checkout
 * that runs the same create -> approve -> capture -> refund life without money.
 */
export interface PaymentProvider {
  readonly mode: PaymentMode;
  /** Public id the browser's SDK needs ('' for the test checkout). */
  readonly clientId: string;
  createOrder(order: OrderRequest): Promise<ProviderOrder>;
  /** Reads an order without changing it; undefined when the provider does not know it. */
  getOrder(orderId: string): Promise<OrderView | undefined>;
  /** Captures once whatever the number of calls; an order captured earlier answers its capture. */
  captureOrder(orderId: string, purchaseId: string): Promise<CaptureOutcome>;
  /** Refunds `amountCents`, or the whole capture when null. */
  refundCapture(captureId: string, purchaseId: string, amountCents: number | null): Promise<RefundResult>;
  /** True only for a delivery the provider confirms it sent. */
  verifyWebhook(delivery: WebhookDelivery): Promise<boolean>;
}

/** The provider did not answer usably (timeout, network, 5xx) after the retries. Nothing is known to have happened. */
export class ProviderUnavailable extends Error {
  constructor(readonly operation: string, cause: string) {
    super(`payment provider unavailable during ${operation}: ${cause}`);
    this.name = 'ProviderUnavailable';
  }
}

/** The provider refused the request (a 4xx we do not treat as an outcome). */
export class ProviderRefused extends Error {
  constructor(readonly operation: string, readonly status: number, readonly issue: string | undefined, message: string) {
    super(`payment provider refused ${operation} (${status}${issue ? ` ${issue}` : ''}): ${message}`);
    this.name = 'ProviderRefused';
  }
}

/** "49.00" -> 4900; anything but a plain non-negative amount with up to 2 decimals -> null. */
export function centsOf(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(value)) return null;
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 4900 -> "49.00" */
export const valueOf = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

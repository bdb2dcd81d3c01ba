import type { ServiceContext } from '@leadforge/kit/service';
import type { Db } from '@leadforge/kit/db';
import { HttpError, badGateway, badRequest, conflict, notFound, serviceUnavailable } from '@leadforge/kit/http';
import { PLANS, PROMO_CBC500, REFUND_WINDOW_DAYS, type ExecutePaymentResponse, type PlanId, type RefundResponse } from '@leadforge/contracts';
import type { PaymentProviders } from '../payments/paymentProviders.ts';
import { ProviderRefused, ProviderUnavailable, type CaptureOutcome, type PaymentProvider } from '../payments/paymentProvider.ts';
import {
  attachProviderOrder, createPurchase, findByOrderId, findPurchase, isAmountMismatch, markFailed, recordCapture, refundableUntil,
  type CaptureRecord, type PurchaseRow,
} from './purchases.ts';
import { newClaimToken } from './promoClaims.ts';
import { refundMismatchedCapture, refundView, reversePurchase } from './refunds.ts';

/** Turns a provider failure into the answer the user gets; nothing is granted on any of these. */
function providerFailure(err: unknown, action: string): never {
  if (err instanceof ProviderUnavailable) throw badGateway(`PayPal did not answer while ${action}. Please try again in a moment.`, 'provider_unavailable');
  if (err instanceof ProviderRefused) throw badGateway(`PayPal refused ${action} (${err.issue ?? `HTTP ${err.status}`}).`, 'provider_refused');
  throw err;
}

/**
 * The purchase flows: create the provider's order for a price from our table, capture it once the
 * buyer approved, grant once; the same for the promo order (no account yet); refunds.
 */
export class Checkout {
  private readonly db: Db;
  private readonly log: ServiceContext['log'];
  /** One capture in flight per purchase in this process; other replicas are covered by the row lock and PayPal-Request-Id. */
  private readonly capturing = new Map<string, Promise<CaptureRecord>>();

  constructor(ctx: ServiceContext, private readonly providers: PaymentProviders) {
    this.db = ctx.db;
    this.log = ctx.log;
  }

  private async newOrder(p: PurchaseRow, provider: PaymentProvider, description: string, urls: { returnUrl?: string; cancelUrl?: string }) {
    try {
      const order = await provider.createOrder({ purchaseId: p.id, amountCents: p.amount_cents, description, ...urls });
      await attachProviderOrder(this.db, p.id, order.id);
      return order;
    } catch (err) {
      await markFailed(this.db, p.id, `create failed: ${(err as Error).message}`);
      providerFailure(err, 'creating the payment');
    }
  }

  async startPlanCheckout(userId: string, planId: PlanId, urls: { returnUrl?: string; cancelUrl?: string }) {
    const plan = PLANS[planId];
    const provider = await this.providers.active();
    const p = await createPurchase(this.db, { kind: 'plan', planId, userId, amountCents: plan.price * 100, credits: plan.credits, mode: provider.mode });
    const order = await this.newOrder(p, provider, `Leadforge ${plan.name}: ${plan.credits.toLocaleString('en-US')} credits`, urls);
    return { payment_id: order.id, ...(order.approveUrl ? { approve_url: order.approveUrl } : {}) };
  }

  async executePlanPayment(userId: string, orderId: string): Promise<ExecutePaymentResponse> {
    const p = await findByOrderId(this.db, orderId, 'plan');
    if (!p || p.user_id !== userId) throw notFound('Payment not found', 'payment_not_found');
    const record = await this.capture(p);
    if (record.outcome === 'pending') {
      return { success: false, credits_added: 0, status: 'pending', message: 'PayPal is still reviewing this payment. Your credits will be added as soon as it clears.' };
    }
    return { success: true, credits_added: record.purchase.credits, status: 'completed' };
  }

  async startPromoCheckout(amount: number | undefined) {
    if (amount !== undefined && amount !== PROMO_CBC500.price) {
      throw badRequest(`The CBC500 offer costs $${PROMO_CBC500.price}; prices are set by the server`, 'price_mismatch');
    }
    const provider = await this.providers.active();
    // The order id travels in the register link; the claim token stays in the buyer's browser.
    const claim = newClaimToken();
    const p = await createPurchase(this.db, { kind: 'promo', planId: PROMO_CBC500.plan, userId: null, amountCents: PROMO_CBC500.price * 100, credits: PROMO_CBC500.credits, mode: provider.mode, claimTokenHash: claim.hash });
    const order = await this.newOrder(p, provider, `Leadforge CBC Special: ${PROMO_CBC500.credits} credits`, {});
    return { order_id: order.id, claim_token: claim.token, ...(order.approveUrl ? { approve_url: order.approveUrl } : {}) };
  }

  async completePromoPayment(orderId: string) {
    const p = await findByOrderId(this.db, orderId, 'promo');
    if (!p) throw notFound('Promo order not found', 'order_not_found');
    const record = await this.capture(p);
    return { success: true, order_id: orderId, status: record.outcome === 'pending' ? 'pending' as const : 'completed' as const };
  }

  /** Captures through the provider that created the order; any number of concurrent calls share one. */
  private capture(p: PurchaseRow): Promise<CaptureRecord> {
    let inFlight = this.capturing.get(p.id);
    if (!inFlight) {
      inFlight = this.captureOnce(p).finally(() => this.capturing.delete(p.id));
      this.capturing.set(p.id, inFlight);
    }
    return inFlight.then((record) => {
      if (record.outcome === 'completed' || record.outcome === 'pending') return record;
      if (record.outcome === 'refunded') throw conflict('This payment was refunded', 'payment_refunded');
      if (record.outcome === 'amount_mismatch') {
        throw new HttpError(422, record.purchase.refunded_at
          ? 'The amount PayPal captured does not match this order, so it was refunded to you in full and no credits were added. Please start a new purchase.'
          : 'The amount PayPal captured does not match this order, so no credits were added; the refund to you is being retried. Please contact support if it does not arrive.', 'amount_mismatch');
      }
      throw new HttpError(402, 'PayPal did not complete this payment. Please try another payment method.', 'payment_failed');
    });
  }

  private async captureOnce(p: PurchaseRow): Promise<CaptureRecord> {
    const current = (await findPurchase(this.db, p.id))!;
    // A pending capture is asked about again: PayPal answers with its current status.
    if (current.status === 'completed') return { outcome: 'completed', purchase: current, newlyCompleted: false };
    if (current.status === 'refunded') return { outcome: 'refunded', purchase: current };
    if (current.status === 'failed' && !current.provider_order_id) throw conflict('This payment could not be created; please start a new one', 'payment_failed');
    const provider = this.providers.forMode(current.provider_mode);
    if (!provider) throw serviceUnavailable(`This payment was made in PayPal ${current.provider_mode} mode, which is not configured on this server`, 'mode_not_configured');
    // Nothing more is captured for a mismatched purchase; only its refund may still be owed.
    if (isAmountMismatch(current)) return { outcome: 'amount_mismatch', purchase: await refundMismatchedCapture(this.db, provider, current, this.log) };
    let outcome;
    try {
      outcome = await this.captureHonourably(provider, current);
    } catch (err) {
      providerFailure(err, 'confirming the payment');
    }
    switch (outcome.kind) {
      case 'captured': {
        const record = await recordCapture(this.db, current.id, outcome.capture);
        if (record.outcome !== 'amount_mismatch') return record;
        return { outcome: 'amount_mismatch', purchase: await refundMismatchedCapture(this.db, provider, record.purchase, this.log) };
      }
      case 'order_mismatch':
        await markFailed(this.db, current.id, 'order amount differs from the purchase; not captured');
        throw new HttpError(422, 'This PayPal order is not for the price of your purchase, so nothing was charged. Please start a new purchase.', 'order_amount_mismatch');
      case 'not_approved':
        throw badRequest('This payment has not been approved yet. Approve it in the PayPal window first.', 'payment_not_approved');
      case 'declined':
        throw new HttpError(402, 'PayPal declined the payment. Please try another payment method.', 'payment_declined');
      case 'not_found':
        await markFailed(this.db, current.id, 'provider does not know the order');
        throw notFound('PayPal does not know this payment', 'payment_not_found');
    }
  }

  /**
   * Reads the order first: a capture made before a crash (or by another replica) is found and used,
   * and an order for another amount than ours is never captured. A decline is checked against the
   * order too, since a repeated capture of a captured order must not read as the buyer's refusal.
   */
  private async captureHonourably(provider: PaymentProvider, p: PurchaseRow): Promise<CaptureOutcome | { kind: 'order_mismatch' }> {
    const order = await provider.getOrder(p.provider_order_id!);
    if (!order) return { kind: 'not_found' };
    if (order.capture) return { kind: 'captured', capture: order.capture };
    if (order.amountCents !== p.amount_cents || order.currency !== p.currency) return { kind: 'order_mismatch' };
    const outcome = await provider.captureOrder(order.id, p.id);
    if (outcome.kind !== 'declined') return outcome;
    const after = await provider.getOrder(order.id);
    return after?.capture ? { kind: 'captured', capture: after.capture } : outcome;
  }

  /** Admin refund within the window: money back through the provider, then the credits taken back. */
  async refund(purchaseId: string, actorId: string, reason?: string): Promise<RefundResponse> {
    const p = await findPurchase(this.db, purchaseId);
    if (!p) throw notFound('Purchase not found', 'purchase_not_found');
    if (p.status === 'refunded') return refundView(p);
    if (p.status !== 'completed') throw conflict(`Only completed purchases can be refunded; this one is ${p.status}`, 'purchase_not_completed');
    const until = refundableUntil(p)!;
    if (Date.now() > until.getTime()) {
      throw badRequest(`Refunds are possible within ${REFUND_WINDOW_DAYS} days of purchase; this purchase was completed on ${new Date(p.completed_at!).toISOString().slice(0, 10)}`, 'refund_window_passed');
    }
    const provider = this.providers.forMode(p.provider_mode);
    if (!provider) throw serviceUnavailable(`This payment was made in PayPal ${p.provider_mode} mode, which is not configured on this server`, 'mode_not_configured');
    let refundId: string | null;
    try {
      ({ refundId } = await provider.refundCapture(p.capture_id!, p.id, p.amount_cents));
    } catch (err) {
      providerFailure(err, 'refunding the payment');
    }
    const { purchase } = await reversePurchase(this.db, p.id, { refundId, actorId, reason });
    return refundView(purchase);
  }
}

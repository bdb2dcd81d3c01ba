import type { ServiceContext } from '@leadforge/kit/service';
import type { Db } from '@leadforge/kit/db';
import { HttpError, badGateway, badRequest, findHostileValue } from '@leadforge/kit/http';
import { webhooksTotal } from '../metrics.ts';
import type { PaymentProviders } from '../payments/paymentProviders.ts';
import { ProviderUnavailable, centsOf, type OrderView, type PaymentProvider, type WebhookDelivery } from '../payments/paymentProvider.ts';
import { UUID, findPurchase, markFailed, recordCapture, type PurchaseRow } from './purchases.ts';
import { inTransaction } from './ledger.ts';
import { finishRefund } from './refundRequests.ts';
import { refundMismatchedCapture, reversePurchase } from './refunds.ts';

/** The parts of a PayPal webhook event we read; `resource` is a capture or a refund. */
interface PaypalEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  resource?: {
    id?: string;
    status?: string;
    custom_id?: string;
    amount?: { value?: string; currency_code?: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
    links?: { href?: string; rel?: string }[];
  };
}

const CAPTURE_STATUS_BY_EVENT: Record<string, string> = {
  'PAYMENT.CAPTURE.COMPLETED': 'COMPLETED',
  'PAYMENT.CAPTURE.PENDING': 'PENDING',
  'PAYMENT.CAPTURE.DENIED': 'DECLINED',
  'PAYMENT.CAPTURE.DECLINED': 'DECLINED',
};

async function purchaseOfCapture(db: Db, resource: NonNullable<PaypalEvent['resource']>): Promise<PurchaseRow | undefined> {
  if (resource.custom_id && UUID.test(resource.custom_id)) {
    const byCustomId = await findPurchase(db, resource.custom_id);
    if (byCustomId) return byCustomId;
  }
  const orderId = resource.supplementary_data?.related_ids?.order_id;
  if (orderId) {
    const byOrder = await db('purchases').where({ provider_order_id: orderId }).first();
    if (byOrder) return byOrder;
  }
  return resource.id ? db('purchases').where({ capture_id: resource.id }).first() : undefined;
}

/** A refund resource points "up" to its capture: .../v2/payments/captures/{capture_id}. */
function capturedIdOfRefund(event: PaypalEvent): string | undefined {
  const up = event.resource?.links?.find((l) => l.rel === 'up' && l.href?.includes('/captures/'));
  const fromLink = up?.href?.match(/\/captures\/([^/?]+)/)?.[1];
  return fromLink ?? (event.resource_type === 'capture' ? event.resource?.id : undefined);
}

/**
 * PayPal webhooks: every delivery is verified with PayPal (verify-webhook-signature) before it
 * counts; each event id is applied once. Captures completed grant (as the execute call does, and
 * only once between them); refunds and reversals take the credits back.
 */
export class PaypalWebhooks {
  private readonly db: Db;

  constructor(private readonly ctx: ServiceContext, private readonly providers: PaymentProviders) {
    this.db = ctx.db;
  }

  async handle(delivery: WebhookDelivery): Promise<{ received: true; outcome: string }> {
    let event: PaypalEvent;
    try {
      event = JSON.parse(delivery.rawBody);
    } catch {
      throw badRequest('Webhook body is not valid JSON', 'invalid_json');
    }
    if (!event || typeof event.id !== 'string' || typeof event.event_type !== 'string') throw badRequest('Not a PayPal webhook event', 'not_an_event');
    const hostile = findHostileValue(event, 'event');
    if (hostile) throw badRequest(hostile, 'invalid_input');
    await this.verify(delivery);

    const seen = await this.db('paypal_webhook_events').where({ id: event.id }).first();
    if (seen) {
      webhooksTotal.inc({ event_type: event.event_type, outcome: 'duplicate' });
      return { received: true, outcome: 'duplicate' };
    }
    const outcome = await this.apply(event);
    await this.db('paypal_webhook_events').insert({ id: event.id, event_type: event.event_type, resource_id: event.resource?.id ?? null, outcome }).onConflict('id').ignore();
    webhooksTotal.inc({ event_type: event.event_type, outcome });
    this.ctx.log.info({ eventId: event.id, type: event.event_type, outcome }, 'PayPal webhook applied');
    return { received: true, outcome };
  }

  private async verify(delivery: WebhookDelivery): Promise<void> {
    const verifiers = this.providers.webhookVerifiers();
    if (verifiers.length === 0) throw new HttpError(400, 'PayPal webhooks are not configured on this server (PAYPAL_WEBHOOK_ID)', 'webhooks_unconfigured');
    let unavailable = false;
    for (const provider of verifiers) {
      try {
        if (await provider.verifyWebhook(delivery)) return;
      } catch (err) {
        if (!(err instanceof ProviderUnavailable)) throw err;
        unavailable = true;
      }
    }
    webhooksTotal.inc({ event_type: 'unverified', outcome: unavailable ? 'verification_unavailable' : 'invalid_signature' });
    // A non-2xx makes PayPal deliver again later, when verification may be possible.
    if (unavailable) throw badGateway('PayPal could not verify this webhook right now', 'verification_unavailable');
    throw badRequest('Webhook signature could not be verified', 'invalid_signature');
  }

  private async readOrder(provider: PaymentProvider, orderId: string): Promise<OrderView | undefined> {
    try {
      return await provider.getOrder(orderId);
    } catch (err) {
      // A non-2xx makes PayPal deliver again later.
      if (err instanceof ProviderUnavailable) throw badGateway('PayPal could not be asked about this payment right now', 'provider_unavailable');
      throw err;
    }
  }

  private async apply(event: PaypalEvent): Promise<string> {
    const resource = event.resource;
    if (!resource) return 'ignored';
    const captureStatus = CAPTURE_STATUS_BY_EVENT[event.event_type];
    if (captureStatus) {
      const purchase = await purchaseOfCapture(this.db, resource);
      if (!purchase?.provider_order_id) return 'unknown_purchase';
      const provider = this.providers.forMode(purchase.provider_mode);
      if (!provider) return 'mode_not_configured';
      // The event only says where to look. A verified event can still describe another order's
      // capture (custom_id is the payer's to see), so what counts is what our order holds.
      const order = await this.readOrder(provider, purchase.provider_order_id);
      if (!order?.capture) return 'no_capture_on_order';
      const record = await recordCapture(this.db, purchase.id, order.capture);
      if (record.outcome === 'amount_mismatch') {
        const settled = await refundMismatchedCapture(this.db, provider, record.purchase, this.ctx.log);
        return settled.refunded_at ? 'amount_mismatch_refunded' : 'amount_mismatch';
      }
      return record.outcome;
    }
    if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' || event.event_type === 'PAYMENT.CAPTURE.REVERSED') {
      const captureId = capturedIdOfRefund(event);
      const purchase: PurchaseRow | undefined = (captureId ? await this.db('purchases').where({ capture_id: captureId }).first() : undefined)
        ?? (resource.custom_id && UUID.test(resource.custom_id) ? await findPurchase(this.db, resource.custom_id) : undefined);
      if (!purchase) return 'unknown_purchase';
      if (purchase.status === 'refunded') return 'already_refunded';
      // A refund we started (a request approved, or refunded at once) has its amounts fixed already:
      // this event only confirms it, whichever of the two arrives first.
      const refundId = event.resource_type === 'refund' ? resource.id ?? null : null;
      const finished = await inTransaction(this.db, (trx) => finishRefund(trx, purchase.id, refundId));
      if (finished) return finished.finishedNow ? 'refunded' : 'already_refunded';
      if (purchase.status !== 'completed') {
        await markFailed(this.db, purchase.id, event.event_type);
        return 'failed';
      }
      const refundedCents = centsOf(resource.amount?.value);
      if (refundedCents !== null && refundedCents < purchase.amount_cents) {
        // A partial refund from PayPal's dashboard: the credits to take back are an admin's call.
        this.ctx.log.warn({ purchaseId: purchase.id, refundedCents }, 'partial PayPal refund: credits left as they are; adjust them in the admin panel if needed');
        return 'partial_refund_ignored';
      }
      const { reversedNow } = await reversePurchase(this.db, purchase.id, { refundId, reason: event.event_type });
      return reversedNow ? 'refunded' : 'already_refunded';
    }
    return 'ignored';
  }
}

import type { PaypalCredentials } from '../config.ts';
import { PaypalClient, type PaypalClientOptions } from './paypalClient.ts';
import {
  ProviderRefused, centsOf, valueOf,
  type CaptureOutcome, type CaptureView, type OrderRequest, type OrderView, type PaymentProvider, type ProviderOrder, type RefundResult, type WebhookDelivery,
} from './paymentProvider.ts';

/** The parts of an Orders v2 order we read (PayPal sends much more). */
interface PaypalOrder {
  id: string;
  status: string;
  links?: { href: string; rel: string }[];
  payer?: { payer_id?: string; email_address?: string };
  payment_source?: { paypal?: { account_id?: string; email_address?: string } };
  purchase_units?: {
    custom_id?: string;
    amount?: { value?: string; currency_code?: string };
    payments?: { captures?: { id: string; status: string; amount?: { value?: string; currency_code?: string }; custom_id?: string }[] };
  }[];
}

/** Issues of a capture call that are the buyer's outcome, not our error (Orders v2 error catalogue). */
const DECLINE_ISSUES = new Set(['INSTRUMENT_DECLINED', 'PAYER_ACTION_REQUIRED', 'TRANSACTION_REFUSED', 'PAYER_CANNOT_PAY', 'COMPLIANCE_VIOLATION', 'MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED', 'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING']);

/** The first capture of an order, reduced to what decides a grant. */
export function captureOf(order: PaypalOrder): CaptureView | undefined {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  if (!capture) return undefined;
  return {
    orderId: order.id,
    captureId: capture.id,
    status: capture.status,
    amountCents: centsOf(capture.amount?.value),
    currency: capture.amount?.currency_code ?? '',
    customId: capture.custom_id ?? unit?.custom_id,
    payer: payerOf(order),
  };
}

/** The PayPal account that paid: `payment_source.paypal` (Orders v2), or the older `payer` object. */
function payerOf(order: PaypalOrder): CaptureView['payer'] {
  const id = order.payment_source?.paypal?.account_id ?? order.payer?.payer_id;
  const email = order.payment_source?.paypal?.email_address ?? order.payer?.email_address;
  return id || email ? { ...(id ? { id } : {}), ...(email ? { email } : {}) } : undefined;
}

/** PayPal Orders v2 (sandbox or live), one instance per credentials set. */
export class PaypalProvider implements PaymentProvider {
  readonly mode: 'sandbox' | 'live';
  readonly clientId: string;
  private readonly client: PaypalClient;

  constructor(private readonly credentials: PaypalCredentials, options: PaypalClientOptions) {
    this.mode = credentials.mode;
    this.clientId = credentials.clientId;
    this.client = new PaypalClient(credentials, options);
  }

  async createOrder(order: OrderRequest): Promise<ProviderOrder> {
    const experience = order.returnUrl || order.cancelUrl
      ? { payment_source: { paypal: { experience_context: { brand_name: 'Leadforge', shipping_preference: 'NO_SHIPPING', user_action: 'PAY_NOW', return_url: order.returnUrl, cancel_url: order.cancelUrl } } } }
      : {};
    const created = await this.client.call<PaypalOrder>('POST', '/v2/checkout/orders', {
      operation: 'create_order',
      requestId: `create-${order.purchaseId}`,
      body: {
        intent: 'CAPTURE',
        purchase_units: [{
          reference_id: order.purchaseId,
          custom_id: order.purchaseId,
          invoice_id: order.purchaseId,
          description: order.description,
          amount: { currency_code: 'USD', value: valueOf(order.amountCents) },
        }],
        ...experience,
      },
    });
    const approve = created.links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action');
    return { id: created.id, status: created.status, approveUrl: approve?.href };
  }

  async getOrder(orderId: string): Promise<OrderView | undefined> {
    let order: PaypalOrder;
    try {
      order = await this.client.call<PaypalOrder>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`, { operation: 'get_order' });
    } catch (err) {
      if (err instanceof ProviderRefused && (err.status === 404 || err.issue === 'RESOURCE_NOT_FOUND' || err.issue === 'INVALID_RESOURCE_ID')) return undefined;
      throw err;
    }
    const amount = order.purchase_units?.[0]?.amount;
    return { id: order.id, status: order.status, amountCents: centsOf(amount?.value), currency: amount?.currency_code ?? '', capture: captureOf(order) };
  }

  async captureOrder(orderId: string, purchaseId: string): Promise<CaptureOutcome> {
    const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}`;
    let order: PaypalOrder;
    try {
      order = await this.client.call<PaypalOrder>('POST', `${path}/capture`, { operation: 'capture', requestId: `capture-${purchaseId}`, body: {} });
    } catch (err) {
      if (!(err instanceof ProviderRefused)) throw err;
      if (err.issue === 'ORDER_ALREADY_CAPTURED') {
        // Captured by an earlier call whose answer we lost (or by another request id): read the capture.
        order = await this.client.call<PaypalOrder>('GET', path, { operation: 'get_order' });
      } else if (err.issue === 'ORDER_NOT_APPROVED') {
        return { kind: 'not_approved' };
      } else if (err.status === 404 || err.issue === 'RESOURCE_NOT_FOUND' || err.issue === 'INVALID_RESOURCE_ID') {
        return { kind: 'not_found' };
      } else if (err.issue && DECLINE_ISSUES.has(err.issue)) {
        return { kind: 'declined', issue: err.issue };
      } else {
        throw err;
      }
    }
    const capture = captureOf(order);
    if (!capture) return order.status === 'APPROVED' || order.status === 'CREATED' ? { kind: 'not_approved' } : { kind: 'declined', issue: `order ${order.status}` };
    return { kind: 'captured', capture };
  }

  async refundCapture(captureId: string, purchaseId: string, amountCents: number | null): Promise<RefundResult> {
    try {
      const refund = await this.client.call<{ id: string; status: string }>('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
        operation: 'refund',
        requestId: `refund-${purchaseId}`,
        // Without an amount PayPal refunds the whole capture.
        body: { ...(amountCents === null ? {} : { amount: { currency_code: 'USD', value: valueOf(amountCents) } }), note_to_payer: 'Leadforge refund' },
      });
      return { refundId: refund.id, status: refund.status };
    } catch (err) {
      // Refunded already (from PayPal's dashboard, or a call whose answer we lost): the money is back.
      if (err instanceof ProviderRefused && err.issue === 'CAPTURE_FULLY_REFUNDED') return { refundId: null, status: 'COMPLETED' };
      throw err;
    }
  }

  async verifyWebhook({ headers, rawBody }: WebhookDelivery): Promise<boolean> {
    if (!this.credentials.webhookId) return false;
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const fields = {
      auth_algo: header('paypal-auth-algo'),
      cert_url: header('paypal-cert-url'),
      transmission_id: header('paypal-transmission-id'),
      transmission_sig: header('paypal-transmission-sig'),
      transmission_time: header('paypal-transmission-time'),
      webhook_id: this.credentials.webhookId,
    };
    if (Object.values(fields).some((v) => !v)) return false;
    // The event goes back byte for byte: re-serialising it could change what PayPal signed.
    const body = `${JSON.stringify(fields).slice(0, -1)},"webhook_event":${rawBody}}`;
    const answer = await this.client.call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', { operation: 'verify_webhook', body });
    return answer?.verification_status === 'SUCCESS';
  }
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncRequestListener } from '@leadforge/testing';

/**
 * A local PayPal REST stand-in answering in PayPal's documented shapes, built from the real
 * recorded responses in ../fixtures/paypal (see its README): OAuth token, Orders v2 create / get /
 * capture (with PayPal-Request-Id replay and ORDER_ALREADY_CAPTURED), capture refunds, webhook
 * signature verification and PayPal's error bodies. Tests approve orders (the buyer's step) and
 * inject faults: a 500 or a timeout, before or after PayPal has acted.
 */

const FIXTURES = new URL('../fixtures/paypal/', import.meta.url);
const fixture = (name: string) => JSON.parse(fs.readFileSync(new URL(name, FIXTURES), 'utf8'));
const CREATE_FIXTURE = fixture('sandbox-create-order-response.json');
const CAPTURE_FIXTURE = fixture('sandbox-capture-order-response-card.json');
const WEBHOOK_FIXTURE = fixture('webhook-payment-capture-completed.json');
const ALREADY_CAPTURED_FIXTURE = fs.readFileSync(new URL('error-422-order-already-captured.json', FIXTURES), 'utf8');

export type Operation = 'token' | 'create' | 'capture' | 'get' | 'refund' | 'verify';
/**
 * before: fail without acting; after: act, then fail to answer (the answer is lost);
 * slow-after: act, then answer late but in time.
 */
export type Fault = 'status500-before' | 'status500-after' | 'timeout-before' | 'timeout-after' | 'slow-after';

interface StandInRefund {
  id: string;
  status: 'COMPLETED' | 'PENDING';
  amount: { currency_code: string; value: string };
}

interface StandInOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  request: { purchase_units: { reference_id?: string; custom_id?: string; invoice_id?: string; description?: string; amount: { currency_code: string; value: string } }[] };
  /** `refundedCents` of the capture's amount went back through refunds. */
  capture?: { id: string; status: string; refundedCents: number; refunds: StandInRefund[] };
  createTime: string;
  /** The PayPal account that approved the order (each buyer their own unless a test says otherwise). */
  payer?: StandInPayer;
}

/** A PayPal account as an order names its payer. */
export interface StandInPayer {
  accountId: string;
  email: string;
}

const paypalId = () => crypto.randomBytes(12).toString('hex').toUpperCase().slice(0, 17);
const debugId = () => crypto.randomBytes(7).toString('hex').slice(0, 13);

const errorBody = (name: string, message: string, issue?: string, description?: string, api: 'orders' | 'payments' = 'orders') => JSON.stringify({
  name,
  message,
  debug_id: debugId(),
  ...(issue ? { details: [{ issue, description: description ?? issue }] } : {}),
  links: [{ href: `https://developer.paypal.com/docs/api/${api}/v2/#error-${issue ?? name}`, rel: 'information_link', method: 'GET' }],
});
const UNPROCESSABLE = 'The requested action could not be performed, semantically incorrect, or failed business validation.';

/** "19.00" -> 1900; anything else -> null. */
const cents = (value: unknown) => (typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value) ? Math.round(Number(value) * 100) : null);
const dollarsOf = (amount: number) => (amount / 100).toFixed(2);

/** CRC32 (IEEE), as PayPal's signature scheme uses over the event body. */
function crc32(text: string): number {
  let crc = ~0;
  for (const byte of Buffer.from(text)) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

export async function startPaypalStandIn(options: { holdMs?: number } = {}) {
  const clientId = `standin-${paypalId()}`;
  const clientSecret = crypto.randomBytes(16).toString('hex');
  const webhookId = `WH${paypalId()}`;
  const signingKey = crypto.randomBytes(32);
  const holdMs = options.holdMs ?? 1500;
  const tokens = new Set<string>();
  const orders = new Map<string, StandInOrder>();
  const replies = new Map<string, { status: number; body: string }>();
  const faults: { op: Operation; fault: Fault; delayMs: number }[] = [];
  const calls: { op: Operation; path: string; requestId?: string; status: number }[] = [];
  let captureStatus: 'COMPLETED' | 'PENDING' | 'DECLINED' = 'COMPLETED';
  let capturedAmountOverride: string | undefined;
  let refundStatus: 'COMPLETED' | 'PENDING' = 'COMPLETED';
  let url = '';

  const capturedCents = (o: StandInOrder) => cents(capturedAmountOverride ?? o.request.purchase_units[0].amount.value) ?? 0;
  /** Payments v2 capture statuses: REFUNDED once nothing is left, PARTIALLY_REFUNDED before. */
  const captureStatusOf = (o: StandInOrder) => {
    const capture = o.capture!;
    if (capture.refundedCents === 0) return capture.status;
    return capture.refundedCents >= capturedCents(o) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  };

  const orderView = (o: StandInOrder) => {
    const unit = o.request.purchase_units[0];
    const base = structuredClone(CREATE_FIXTURE);
    const view: Record<string, unknown> = {
      ...base,
      id: o.id,
      status: o.status,
      purchase_units: [{ ...base.purchase_units[0], reference_id: unit.reference_id ?? 'default', custom_id: unit.custom_id, invoice_id: unit.invoice_id, description: unit.description, amount: unit.amount, items: undefined, shipping: undefined }],
      links: [
        { href: `${url}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' },
        { href: `https://www.sandbox.paypal.com/checkoutnow?token=${o.id}`, rel: 'approve', method: 'GET' },
        { href: `${url}/v2/checkout/orders/${o.id}`, rel: 'update', method: 'PATCH' },
        { href: `${url}/v2/checkout/orders/${o.id}/capture`, rel: 'capture', method: 'POST' },
      ],
    };
    delete view.payment_source;
    if (o.capture) {
      const fixtureCapture = CAPTURE_FIXTURE.purchase_units[0].payments.captures[0];
      const amount = { currency_code: unit.amount.currency_code, value: capturedAmountOverride ?? unit.amount.value };
      const payer = o.payer ?? { accountId: 'QYR5Z8XDVJNXQ', email: 'buyer@example.com' };
      view.payment_source = { paypal: { email_address: payer.email, account_id: payer.accountId, account_status: 'VERIFIED', name: { given_name: 'Test', surname: 'Buyer' } } };
      view.payer = { name: { given_name: 'Test', surname: 'Buyer' }, email_address: payer.email, payer_id: payer.accountId };
      view.purchase_units = [{
        reference_id: unit.reference_id ?? 'default',
        payments: {
          captures: [{
            ...fixtureCapture,
            id: o.capture.id,
            status: captureStatusOf(o),
            amount,
            custom_id: unit.custom_id,
            invoice_id: unit.invoice_id,
            seller_receivable_breakdown: { ...fixtureCapture.seller_receivable_breakdown, gross_amount: amount },
            links: [
              { href: `${url}/v2/payments/captures/${o.capture.id}`, rel: 'self', method: 'GET' },
              { href: `${url}/v2/payments/captures/${o.capture.id}/refund`, rel: 'refund', method: 'POST' },
              { href: `${url}/v2/checkout/orders/${o.id}`, rel: 'up', method: 'GET' },
            ],
          }],
        },
      }];
      view.links = [{ href: `${url}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' }];
    }
    return view;
  };

  /** Does the operation's work; answers what PayPal answers. */
  function act(op: Operation, path: string, body: string): { status: number; body: string } {
    if (op === 'create') {
      const request = JSON.parse(body);
      if (request.intent !== 'CAPTURE' || !request.purchase_units?.[0]?.amount?.value) {
        return { status: 400, body: errorBody('INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', 'MISSING_REQUIRED_PARAMETER') };
      }
      const order: StandInOrder = { id: paypalId(), status: 'CREATED', request, createTime: new Date().toISOString() };
      orders.set(order.id, order);
      return { status: 201, body: JSON.stringify(orderView(order)) };
    }
    const orderMatch = path.match(/^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/);
    if (orderMatch) {
      const order = orders.get(orderMatch[1]);
      if (!order) return { status: 404, body: errorBody('RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.') };
      if (op === 'get') return { status: 200, body: JSON.stringify(orderView(order)) };
      if (order.status === 'COMPLETED') return { status: 422, body: ALREADY_CAPTURED_FIXTURE };
      if (order.status !== 'APPROVED') return { status: 422, body: errorBody('UNPROCESSABLE_ENTITY', 'The requested action could not be performed, semantically incorrect, or failed business validation.', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment. Please redirect the payer to the \'rel\':\'approve\' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.') };
      if (captureStatus === 'DECLINED') return { status: 422, body: errorBody('UNPROCESSABLE_ENTITY', 'The requested action could not be performed, semantically incorrect, or failed business validation.', 'INSTRUMENT_DECLINED', 'The instrument presented  was either declined by the processor or bank, or it can\'t be used for this payment.') };
      order.status = 'COMPLETED';
      order.capture = { id: paypalId(), status: captureStatus, refundedCents: 0, refunds: [] };
      return { status: 201, body: JSON.stringify(orderView(order)) };
    }
    const refundMatch = path.match(/^\/v2\/payments\/captures\/([^/]+)\/refund$/);
    if (refundMatch) {
      const order = [...orders.values()].find((o) => o.capture?.id === refundMatch[1]);
      if (!order?.capture) return { status: 404, body: errorBody('RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.', 'payments') };
      const unit = order.request.purchase_units[0];
      const remaining = capturedCents(order) - order.capture.refundedCents;
      if (remaining <= 0) return { status: 422, body: errorBody('UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded', 'payments') };
      const request = body ? JSON.parse(body) : {};
      // Without an amount PayPal refunds what is left of the capture.
      const asked = request.amount === undefined ? remaining : cents(request.amount.value);
      if (asked === null || asked <= 0 || (request.amount && request.amount.currency_code !== unit.amount.currency_code)) {
        return { status: 422, body: errorBody('UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'INVALID_CURRENCY_CODE', 'Currency code should be a three-character currency code.', 'payments') };
      }
      if (asked > remaining) return { status: 422, body: errorBody('UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.', 'payments') };
      order.capture.refundedCents += asked;
      const refund: StandInRefund = { id: paypalId(), status: refundStatus, amount: { currency_code: unit.amount.currency_code, value: dollarsOf(asked) } };
      order.capture.refunds.push(refund);
      return {
        status: 201,
        body: JSON.stringify({
          ...refund,
          links: [
            { href: `${url}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
            { href: `${url}/v2/payments/captures/${order.capture.id}`, rel: 'up', method: 'GET' },
          ],
        }),
      };
    }
    if (op === 'verify') {
      // Our client must pass the event through byte for byte: take its exact text from the request.
      const marker = body.indexOf('"webhook_event":');
      const request = JSON.parse(body);
      const rawEvent = marker >= 0 ? body.slice(marker + '"webhook_event":'.length, -1) : '';
      const expected = sign(request.transmission_id, request.transmission_time, rawEvent);
      const ok = request.webhook_id === webhookId && request.auth_algo === 'SHA256withRSA' && request.transmission_sig === expected && request.cert_url?.startsWith('https://api.paypal.com/');
      return { status: 200, body: JSON.stringify({ verification_status: ok ? 'SUCCESS' : 'FAILURE' }) };
    }
    return { status: 404, body: errorBody('NOT_FOUND', 'The specified resource does not exist.') };
  }

  function sign(transmissionId: string, transmissionTime: string, rawEvent: string): string {
    return crypto.createHmac('sha256', signingKey).update(`${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawEvent)}`).digest('base64');
  }

  const server = http.createServer(asyncRequestListener(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    const answer = (status: number, text: string) => {
      calls.push({ op, path, requestId, status });
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': debugId() });
      res.end(text);
    };
    const op: Operation = path === '/v1/oauth2/token' ? 'token'
      : path === '/v1/notifications/verify-webhook-signature' ? 'verify'
      : path === '/v2/checkout/orders' ? 'create'
      : path.endsWith('/capture') ? 'capture'
      : path.endsWith('/refund') ? 'refund' : 'get';

    const faultIndex = faults.findIndex((f) => f.op === op);
    const { fault, delayMs } = faultIndex >= 0 ? faults.splice(faultIndex, 1)[0] : { fault: undefined, delayMs: holdMs };
    const hold = () => new Promise((resolve) => setTimeout(resolve, delayMs));
    if (fault === 'status500-before') return answer(500, errorBody('INTERNAL_SERVER_ERROR', 'An internal server error has occurred.'));
    if (fault === 'timeout-before') {
      await hold();
      return answer(500, errorBody('INTERNAL_SERVER_ERROR', 'An internal server error has occurred.'));
    }

    if (op === 'token') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || body !== 'grant_type=client_credentials') {
        return answer(401, JSON.stringify({ error: 'invalid_client', error_description: 'Client Authentication failed' }));
      }
      const token = `A21AA${crypto.randomBytes(24).toString('base64url')}`;
      tokens.add(token);
      return answer(200, JSON.stringify({ scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-80W284485P519543T', expires_in: 32400, nonce: `${new Date().toISOString()}${debugId()}` }));
    }
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(bearer)) return answer(401, JSON.stringify({ error: 'invalid_token', error_description: 'Token signature verification failed' }));

    // PayPal-Request-Id: the same id answers the first call's result without acting again.
    const replayKey = requestId ? `${op}:${requestId}` : undefined;
    const replay = replayKey ? replies.get(replayKey) : undefined;
    const reply = replay ?? act(op, path, body);
    if (replayKey && !replay && reply.status < 300) replies.set(replayKey, reply);
    if (fault === 'status500-after') return answer(500, errorBody('INTERNAL_SERVER_ERROR', 'An internal server error has occurred.'));
    if (fault === 'timeout-after' || fault === 'slow-after') await hold();
    answer(reply.status, reply.body);
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A webhook delivery as PayPal sends it: the recorded event with our ids, and its signature headers. */
  function webhook(eventType: string, resource: Record<string, unknown>, resourceType = 'capture') {
    const event = structuredClone(WEBHOOK_FIXTURE);
    event.id = `WH-${paypalId()}-${paypalId()}`;
    event.event_type = eventType;
    event.resource_type = resourceType;
    event.resource = resource;
    event.summary = `${eventType} (stand-in)`;
    const rawBody = JSON.stringify(event);
    const transmissionId = crypto.randomUUID();
    const transmissionTime = new Date().toISOString();
    return {
      rawBody,
      headers: {
        'content-type': 'application/json',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': transmissionTime,
        'paypal-transmission-sig': sign(transmissionId, transmissionTime, rawBody),
        'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1a5f47cb',
        'paypal-auth-algo': 'SHA256withRSA',
      },
    };
  }

  return {
    url,
    env: { PAYPAL_API_BASE: url, PAYPAL_CLIENT_ID: clientId, PAYPAL_CLIENT_SECRET: clientSecret, PAYPAL_WEBHOOK_ID: webhookId },
    calls,
    orders,
    /** The buyer approves the order in PayPal's window, signed in as `payer` (by default an account of its own). */
    approve(orderId: string, payer?: StandInPayer) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`stand-in has no order ${orderId}`);
      if (order.status === 'CREATED') {
        order.status = 'APPROVED';
        order.payer = payer ?? { accountId: paypalId().slice(0, 13), email: `buyer.${orderId.toLowerCase()}@example.com` };
      }
    },
    failNext(op: Operation, fault: Fault, options: { times?: number; delayMs?: number } = {}) {
      for (let i = 0; i < (options.times ?? 1); i++) faults.push({ op, fault, delayMs: options.delayMs ?? holdMs });
    },
    /** PayPal keeps PayPal-Request-Ids for a limited time; after that a repeat is a new request. */
    forgetRequestIds() {
      replies.clear();
    },
    /** Revokes every access token (PayPal answers 401 until a new one is fetched). */
    revokeTokens() {
      tokens.clear();
    },
    setCaptureStatus(status: 'COMPLETED' | 'PENDING' | 'DECLINED') {
      captureStatus = status;
    },
    /** Makes captures report another amount than the order's (a tampered or misrouted capture). */
    setCapturedAmount(value: string | undefined) {
      capturedAmountOverride = value;
    },
    /** Captures an approved order as our capture call would, without anyone hearing the answer (a crash before the grant). */
    captureUnheard(orderId: string) {
      const order = orders.get(orderId)!;
      order.status = 'COMPLETED';
      order.capture = { id: paypalId(), status: 'COMPLETED', refundedCents: 0, refunds: [] };
    },
    /** Whether PayPal holds the order's capture as refunded in full. */
    refunded: (orderId: string) => {
      const order = orders.get(orderId);
      return Boolean(order?.capture) && captureStatusOf(order!) === 'REFUNDED';
    },
    /** The refunds PayPal made of the order's capture. */
    refundsOf: (orderId: string): StandInRefund[] => orders.get(orderId)?.capture?.refunds ?? [],
    /** PayPal answers refunds PENDING (e.g. an eCheck still clearing) or COMPLETED. */
    setRefundStatus(status: 'COMPLETED' | 'PENDING') {
      refundStatus = status;
    },
    /**
     * A genuinely signed PAYMENT.CAPTURE.COMPLETED that names our purchase (custom_id) but is about
     * another capture for another amount: PayPal vouches for the delivery, not for our order.
     */
    foreignCaptureEvent(orderId: string, value: string) {
      const unit = orders.get(orderId)!.request.purchase_units[0];
      return webhook('PAYMENT.CAPTURE.COMPLETED', {
        ...structuredClone(WEBHOOK_FIXTURE.resource),
        id: paypalId(),
        status: 'COMPLETED',
        amount: { currency_code: unit.amount.currency_code, value },
        custom_id: unit.custom_id,
        invoice_id: unit.invoice_id,
        supplementary_data: { related_ids: { order_id: paypalId() } },
      });
    },
    /** Marks a pending capture completed, as PayPal does when its review ends. */
    completePendingCapture(orderId: string) {
      const capture = orders.get(orderId)?.capture;
      if (capture) capture.status = 'COMPLETED';
    },
    captureCompletedEvent(orderId: string, overrides: { value?: string } = {}) {
      const order = orders.get(orderId)!;
      const unit = order.request.purchase_units[0];
      const fixtureResource = structuredClone(WEBHOOK_FIXTURE.resource);
      return webhook('PAYMENT.CAPTURE.COMPLETED', {
        ...fixtureResource,
        id: order.capture!.id,
        status: 'COMPLETED',
        amount: { currency_code: unit.amount.currency_code, value: overrides.value ?? unit.amount.value },
        custom_id: unit.custom_id,
        invoice_id: unit.invoice_id,
        supplementary_data: { related_ids: { order_id: order.id } },
        links: [
          { href: `${url}/v2/payments/captures/${order.capture!.id}`, rel: 'self', method: 'GET' },
          { href: `${url}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
        ],
      });
    },
    refundEvent(orderId: string, eventType: 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED' = 'PAYMENT.CAPTURE.REFUNDED', value?: string) {
      const order = orders.get(orderId)!;
      const unit = order.request.purchase_units[0];
      const refundId = paypalId();
      return webhook(eventType, {
        id: refundId,
        status: 'COMPLETED',
        amount: { currency_code: unit.amount.currency_code, value: value ?? unit.amount.value },
        custom_id: unit.custom_id,
        invoice_id: unit.invoice_id,
        create_time: new Date().toISOString(),
        links: [
          { href: `${url}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
          { href: `${url}/v2/payments/captures/${order.capture!.id}`, rel: 'up', method: 'GET' },
        ],
      }, 'refund');
    },
    /** A delivery whose signature PayPal would not confirm. */
    forged(delivery: { rawBody: string; headers: Record<string, string> }) {
      return { ...delivery, headers: { ...delivery.headers, 'paypal-transmission-sig': Buffer.from('forged').toString('base64') } };
    },
    count: (op: Operation) => calls.filter((c) => c.op === op).length,
    /** Capture calls answered for one order; an earlier test's delayed answer never counts here. */
    capturesOf: (orderId: string) => calls.filter((c) => c.op === 'capture' && c.path === `/v2/checkout/orders/${orderId}/capture`).length,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type PaypalStandIn = Awaited<ReturnType<typeof startPaypalStandIn>>;

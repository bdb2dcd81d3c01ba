import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit/db';
import { notFound } from '@leadforge/kit/http';
import { centsOf, valueOf, type CaptureOutcome, type OrderRequest, type OrderView, type PaymentProvider, type ProviderOrder, type RefundResult } from './paymentProvider.ts';

interface TestOrderRow {
  id: string;
  purchase_id: string;
  amount_value: string;
  currency: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  payer_id: string | null;
  capture_id: string | null;
  refund_id: string | null;
  refund_amount_value: string | null;
}

/** PayPal-style 17-character ids, prefixed so nobody mistakes them for real ones. */
const testId = (prefix: string) => `${prefix}${crypto.randomBytes(16).toString('hex').toUpperCase().slice(0, 17 - prefix.length)}`;

/**
 * The built-in test checkout (local mode without PayPal credentials): orders live in billing's own
 * database and go CREATED -> APPROVED (the buyer presses "Approve" in our clearly labelled test
 * panel) -> COMPLETED, exactly as a PayPal order does, so the server runs the same create, capture
 * and grant code. No money moves. Never built in production (see paymentsConfig).
 */
export class TestCheckoutProvider implements PaymentProvider {
  readonly mode = 'test' as const;
  readonly clientId = '';

  constructor(private readonly db: Db) {}

  async createOrder(order: OrderRequest): Promise<ProviderOrder> {
    const row = { id: testId('TEST'), purchase_id: order.purchaseId, amount_value: valueOf(order.amountCents), currency: 'USD', status: 'CREATED' };
    // Like PayPal-Request-Id: a repeated create for the same purchase answers the first order.
    await this.db('test_checkout_orders').insert(row).onConflict('purchase_id').ignore();
    const stored: TestOrderRow = await this.db('test_checkout_orders').where({ purchase_id: order.purchaseId }).first();
    return { id: stored.id, status: stored.status };
  }

  /** The buyer's approval, which PayPal records when the buyer confirms in its window. */
  async approve(orderId: string): Promise<{ order_id: string; status: 'APPROVED'; payer_id: string }> {
    const payerId = testId('PAYER');
    await this.db('test_checkout_orders').where({ id: orderId, status: 'CREATED' }).update({ status: 'APPROVED', payer_id: payerId, updated_at: this.db.fn.now() });
    const row: TestOrderRow | undefined = await this.db('test_checkout_orders').where({ id: orderId }).first();
    if (!row) throw notFound('Test checkout order not found', 'order_not_found');
    return { order_id: row.id, status: 'APPROVED', payer_id: row.payer_id ?? payerId };
  }

  async getOrder(orderId: string): Promise<OrderView | undefined> {
    const row: TestOrderRow | undefined = await this.db('test_checkout_orders').where({ id: orderId }).first();
    if (!row) return undefined;
    const amountCents = centsOf(row.amount_value);
    const capture = row.capture_id
      ? { orderId, captureId: row.capture_id, status: 'COMPLETED', amountCents, currency: row.currency, customId: row.purchase_id }
      : undefined;
    return { id: row.id, status: row.status, amountCents, currency: row.currency, capture };
  }

  async captureOrder(orderId: string): Promise<CaptureOutcome> {
    return this.db.transaction(async (trx) => {
      const row: TestOrderRow | undefined = await trx('test_checkout_orders').where({ id: orderId }).forUpdate().first();
      if (!row) return { kind: 'not_found' } as const;
      if (row.status === 'CREATED') return { kind: 'not_approved' } as const;
      let captureId = row.capture_id;
      if (row.status === 'APPROVED') {
        captureId = testId('TESTCAP');
        await trx('test_checkout_orders').where({ id: orderId }).update({ status: 'COMPLETED', capture_id: captureId, updated_at: trx.fn.now() });
      }
      return {
        kind: 'captured',
        capture: {
          orderId, captureId: captureId!, status: 'COMPLETED', amountCents: centsOf(row.amount_value), currency: row.currency, customId: row.purchase_id,
          ...(row.payer_id ? { payer: { id: row.payer_id } } : {}),
        },
      } as const;
    });
  }

  /** One refund per capture, like PayPal-Request-Id `refund-<purchase>`: a repeat answers the first. */
  async refundCapture(captureId: string, _purchaseId: string, amountCents: number | null): Promise<RefundResult> {
    const row: TestOrderRow | undefined = await this.db('test_checkout_orders').where({ capture_id: captureId }).first();
    if (!row) throw notFound('Test checkout capture not found', 'capture_not_found');
    const value = amountCents === null ? row.amount_value : valueOf(amountCents);
    await this.db('test_checkout_orders').where({ capture_id: captureId }).whereNull('refund_id')
      .update({ refund_id: testId('TESTREF'), refund_amount_value: value, updated_at: this.db.fn.now() });
    const refunded: TestOrderRow = await this.db('test_checkout_orders').where({ capture_id: captureId }).first();
    return { refundId: refunded.refund_id, status: 'COMPLETED' };
  }

  /** The test checkout sends no webhooks; nothing claiming to be one is trusted. */
  async verifyWebhook(): Promise<boolean> {
    return false;
  }
}

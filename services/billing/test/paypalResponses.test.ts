import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { centsOf, valueOf } from '../src/payments/paymentProvider.ts';
import { captureOf } from '../src/payments/paypalProvider.ts';
import { issueOf } from '../src/payments/paypalClient.ts';

const fixture = (name: string) => JSON.parse(fs.readFileSync(new URL(`./fixtures/paypal/${name}`, import.meta.url), 'utf8'));

describe('reading PayPal\'s recorded responses', () => {
  it('reads the capture of a real sandbox capture-order response', () => {
    expect(captureOf(fixture('sandbox-capture-order-response-card.json'))).toEqual({
      orderId: '46H55548GU006254C',
      captureId: '5KV02158HD8066142',
      status: 'COMPLETED',
      amountCents: 6127,
      currency: 'USD',
      customId: undefined,
    });
  });

  it('finds no capture in a real create-order response', () => {
    expect(captureOf(fixture('sandbox-create-order-response.json'))).toBeUndefined();
  });

  it('reads the issue of a real ORDER_ALREADY_CAPTURED error', () => {
    expect(issueOf(fixture('error-422-order-already-captured.json'))).toBe('ORDER_ALREADY_CAPTURED');
    expect(issueOf({ error: 'invalid_client', error_description: 'Client Authentication failed' })).toBe('invalid_client');
  });

  it('reads a real PAYMENT.CAPTURE.COMPLETED webhook body to exact cents', () => {
    const event = fixture('webhook-payment-capture-completed.json');
    expect(event.event_type).toBe('PAYMENT.CAPTURE.COMPLETED');
    expect(centsOf(event.resource.amount.value)).toBe(3000);
    expect(event.resource.supplementary_data.related_ids.order_id).toBe('1AB234567A1234567');
  });

  it('converts amounts exactly, refusing anything but plain 2-decimal values', () => {
    expect([centsOf('49.00'), centsOf('19'), centsOf('0.5'), centsOf('99.99')]).toEqual([4900, 1900, 50, 9999]);
    expect([centsOf('49.000'), centsOf('-1.00'), centsOf('1e3'), centsOf(49), centsOf(undefined)]).toEqual([null, null, null, null, null]);
    expect([valueOf(4900), valueOf(1905), valueOf(7)]).toEqual(['49.00', '19.05', '0.07']);
  });
});

import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncRequestListener } from '@leadforge/testing';

interface PayoutItem {
  recipient_type?: string;
  amount: { value: string; currency: string };
  receiver: string;
  note?: string;
  sender_item_id?: string;
}

export interface ReceivedBatch {
  payoutBatchId: string;
  senderBatchId: string;
  items: PayoutItem[];
}

/**
 * PayPal's Payouts API as documented (v1/oauth2/token, v1/payments/payouts): batches keyed by
 * sender_batch_id, a duplicate refused with USER_BUSINESS_ERROR and a link to the original.
 * `failNext` makes the next create fail with a 500, before ('error') or after ('lose-answer')
 * PayPal has recorded the batch.
 */
export async function startPaypalPayoutsStandIn(credentials = { clientId: 'payout-client', clientSecret: 'payout-secret' }) {
  const batches = new Map<string, ReceivedBatch>();
  const tokens = new Set<string>();
  const state = { createCalls: 0, failNext: undefined as 'error' | 'lose-answer' | undefined };
  let url = '';

  const readJson = (req: http.IncomingMessage) => new Promise<any>((resolve) => {
    let raw = '';
    req.on('data', (chunk) => { raw += chunk; });
    req.on('end', () => { try { resolve(raw ? JSON.parse(raw) : undefined); } catch { resolve(undefined); } });
  });
  const batchBody = (batch: ReceivedBatch, status: string) => ({
    batch_header: {
      payout_batch_id: batch.payoutBatchId,
      batch_status: status,
      time_created: new Date().toISOString(),
      sender_batch_header: { sender_batch_id: batch.senderBatchId },
    },
    links: [{ href: `${url}/v1/payments/payouts/${batch.payoutBatchId}`, rel: 'self', method: 'GET', encType: 'application/json' }],
  });

  const server = http.createServer(asyncRequestListener(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': crypto.randomBytes(6).toString('hex') });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
      await readJson(req);
      if (req.headers.authorization !== expected) return send(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      const token = `A21AA${crypto.randomBytes(16).toString('hex')}`;
      tokens.add(token);
      return send(200, { scope: 'https://uri.paypal.com/payments/payouts', access_token: token, token_type: 'Bearer', app_id: 'APP-STANDIN', expires_in: 32400 });
    }
    if (!tokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, ''))) {
      return send(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' });
    }
    if (req.method === 'POST' && path === '/v1/payments/payouts') {
      state.createCalls += 1;
      const body = await readJson(req);
      const senderBatchId: string | undefined = body?.sender_batch_header?.sender_batch_id;
      const items: PayoutItem[] = body?.items ?? [];
      const invalid = items.findIndex((item) => !/^\d+\.\d{2}$/.test(item?.amount?.value ?? '') || item.amount.currency !== 'USD' || !/@/.test(item.receiver ?? ''));
      if (!senderBatchId || !items.length || invalid >= 0) {
        return send(400, { name: 'VALIDATION_ERROR', message: 'Invalid request - see details', details: [{ field: invalid >= 0 ? `items[${invalid}]` : 'sender_batch_header', location: 'body', issue: 'Invalid value' }] });
      }
      if (state.failNext === 'error') {
        state.failNext = undefined;
        return send(500, { name: 'INTERNAL_SERVICE_ERROR', message: 'An internal service error has occurred.' });
      }
      const existing = batches.get(senderBatchId);
      if (existing) {
        return send(400, {
          name: 'USER_BUSINESS_ERROR',
          message: 'User business error.',
          details: [{ field: 'SENDER_BATCH_ID', location: 'body', issue: 'Batch with given sender_batch_id already exists' }],
          links: [{ href: `${url}/v1/payments/payouts/${existing.payoutBatchId}`, rel: 'self', method: 'GET', encType: 'application/json' }],
        });
      }
      const batch = { payoutBatchId: crypto.randomBytes(7).toString('hex').toUpperCase().slice(0, 13), senderBatchId, items };
      batches.set(senderBatchId, batch);
      if (state.failNext === 'lose-answer') {
        state.failNext = undefined;
        return send(500, { name: 'INTERNAL_SERVICE_ERROR', message: 'An internal service error has occurred.' });
      }
      return send(201, batchBody(batch, 'PENDING'));
    }
    const get = /^\/v1\/payments\/payouts\/([A-Z0-9]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const batch = [...batches.values()].find((b) => b.payoutBatchId === get[1]);
      return batch ? send(200, batchBody(batch, 'SUCCESS')) : send(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
    }
    send(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    credentials,
    batches,
    state,
    /** Dollars paid to `receiver` across every batch PayPal accepted. */
    paidTo(receiver: string): number {
      let cents = 0;
      for (const batch of batches.values()) for (const item of batch.items) if (item.receiver === receiver) cents += Math.round(Number(item.amount.value) * 100);
      return cents / 100;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

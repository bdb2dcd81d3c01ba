/** The PayPal wire form of an amount: "52.30". */
export const toDecimalString = (cents: number): string => (cents / 100).toFixed(2);

export interface PayoutLine {
  senderItemId: string;
  receiver: string;
  amountCents: number;
  note: string;
}

export interface AcceptedBatch {
  paypalBatchId: string;
  batchStatus: string;
}

/** Sends a payout batch; the same sender batch id twice pays once (PayPal keeps them 30 days). */
export interface PayoutsProvider {
  readonly mode: 'paypal' | 'test';
  submitBatch(senderBatchId: string, lines: PayoutLine[]): Promise<AcceptedBatch>;
}

export class PayoutRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayoutRefused';
  }
}

/**
 * Local mode without PayPal credentials: a clearly labelled stand-in that accepts every batch and
 * moves no money. Production refuses to start without credentials, so it never runs there.
 */
export const testPayouts: PayoutsProvider = {
  mode: 'test',
  async submitBatch(senderBatchId) {
    return { paypalBatchId: `TEST-${senderBatchId}`, batchStatus: 'TEST_MODE_NO_MONEY_MOVED' };
  },
};

interface PaypalError {
  name?: string;
  message?: string;
  details?: { field?: string; issue?: string }[];
  links?: { href: string; rel?: string; method?: string }[];
}

interface PaypalBatch {
  batch_header?: { payout_batch_id?: string; batch_status?: string };
}

const TIMEOUT_MS = 20_000;

/** PayPal Payouts v1 (`POST /v1/payments/payouts`) with a client-credentials token. */
export function paypalPayouts(options: { apiBase: string; clientId: string; clientSecret: string }): PayoutsProvider {
  const base = options.apiBase.replace(/\/$/, '');
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const res = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error_description?: string };
    if (!res.ok || !body.access_token) throw new PayoutRefused(`PayPal refused the credentials (${res.status}${body.error_description ? `: ${body.error_description}` : ''})`);
    token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 0) - 60) * 1000 };
    return token.value;
  }

  async function call(method: 'GET' | 'POST', url: string, body?: unknown, requestId?: string): Promise<{ status: number; json: unknown }> {
    const res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: res.status, json: await res.json().catch(() => undefined) };
  }

  const accepted = (json: unknown): AcceptedBatch | undefined => {
    const header = (json as PaypalBatch | undefined)?.batch_header;
    return header?.payout_batch_id ? { paypalBatchId: header.payout_batch_id, batchStatus: header.batch_status ?? 'PENDING' } : undefined;
  };

  return {
    mode: 'paypal',
    async submitBatch(senderBatchId, lines) {
      const { status, json } = await call('POST', `${base}/v1/payments/payouts`, {
        sender_batch_header: {
          sender_batch_id: senderBatchId,
          recipient_type: 'EMAIL',
          email_subject: 'You have a payout from Leadforge',
          email_message: 'Your Leadforge affiliate commissions have been paid.',
        },
        items: lines.map((line) => ({
          recipient_type: 'EMAIL',
          amount: { value: toDecimalString(line.amountCents), currency: 'USD' },
          receiver: line.receiver,
          note: line.note,
          sender_item_id: line.senderItemId,
        })),
      }, senderBatchId);
      const batch = accepted(json);
      if (status >= 200 && status < 300 && batch) return batch;

      const error = (json ?? {}) as PaypalError;
      // An earlier attempt got through (its answer was lost): PayPal points at the original batch.
      const duplicate = error.details?.some((d) => d.field?.toUpperCase() === 'SENDER_BATCH_ID');
      const original = error.links?.find((l) => (l.method ?? 'GET') === 'GET')?.href;
      if (duplicate && original) {
        const found = await call('GET', original);
        const originalBatch = accepted(found.json);
        if (originalBatch) return originalBatch;
      }
      const issues = error.details?.map((d) => [d.field, d.issue].filter(Boolean).join(': ')).join('; ');
      throw new PayoutRefused(`PayPal answered ${status}${error.name ? ` ${error.name}` : ''}${issues ? ` (${issues})` : error.message ? ` (${error.message})` : ''}`);
    },
  };
}

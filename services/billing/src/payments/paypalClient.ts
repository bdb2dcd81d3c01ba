import { backoffWithJitter } from '@leadforge/kit/work';
import { paypalCalls } from '../metrics.ts';
import type { PaypalCredentials } from '../config.ts';
import { ProviderRefused, ProviderUnavailable } from './paymentProvider.ts';

export interface PaypalClientOptions {
  timeoutMs: number;
  /** Further attempts after a timeout, network error, 429 or 5xx. Safe: every write carries PayPal-Request-Id. */
  retries: number;
  /** The ceiling of the first retry's jittered pause; each next one's doubles, up to 5 s. */
  retryDelayMs?: number;
}

/** PayPal's error body: `{ name, message, debug_id, details: [{ issue, description }] }` (OAuth: `{ error, error_description }`). */
export interface PaypalErrorBody {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: { issue?: string; description?: string }[];
  error?: string;
  error_description?: string;
}

export const issueOf = (body: PaypalErrorBody | undefined): string | undefined => body?.details?.[0]?.issue ?? body?.name ?? body?.error;

interface CallOptions {
  /** A JSON value, or an exact JSON string (webhook verification must pass the event's bytes through). */
  body?: unknown;
  /** PayPal-Request-Id: PayPal answers a repeated id with the first call's result instead of acting twice. */
  requestId?: string;
  operation: string;
}

class RetryableFailure extends Error {}

const MAX_RETRY_DELAY_MS = 5_000;

/**
 * PayPal REST over fetch: OAuth client-credentials token cached until shortly before it expires,
 * timeouts on every call, retries only where a repeat cannot act twice, errors as typed exceptions.
 */
export class PaypalClient {
  private token?: { value: string; expiresAt: number };
  private tokenRequest?: Promise<string>;

  constructor(readonly credentials: PaypalCredentials, private readonly options: PaypalClientOptions) {}

  async call<T>(method: 'GET' | 'POST', path: string, options: CallOptions): Promise<T> {
    const attempts = 1 + this.options.retries;
    let refreshedToken = false;
    let lastProblem = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const token = await this.accessToken();
        const res = await this.send(method, path, {
          authorization: `Bearer ${token}`,
          ...(options.requestId ? { 'paypal-request-id': options.requestId } : {}),
          prefer: 'return=representation',
        }, options.body);
        if (res.status === 401 && !refreshedToken) {
          // The cached token was revoked or expired early: get a new one, once, without using up an attempt.
          this.token = undefined;
          refreshedToken = true;
          attempt--;
          continue;
        }
        const parsed = parseJson(res.text);
        if (res.status === 429 || res.status >= 500) throw new RetryableFailure(`HTTP ${res.status} ${issueOf(parsed as PaypalErrorBody) ?? ''}`.trim());
        if (res.status >= 400) {
          paypalCalls.inc({ operation: options.operation, outcome: 'refused' });
          const body = parsed as PaypalErrorBody | undefined;
          throw new ProviderRefused(options.operation, res.status, issueOf(body), body?.message ?? body?.error_description ?? res.text.slice(0, 200));
        }
        paypalCalls.inc({ operation: options.operation, outcome: 'ok' });
        return parsed as T;
      } catch (err) {
        if (err instanceof ProviderRefused) throw err;
        lastProblem = err instanceof Error ? err.message : String(err);
        if (attempt < attempts) {
          paypalCalls.inc({ operation: options.operation, outcome: 'retry' });
          await sleep(backoffWithJitter(attempt, { baseMs: this.options.retryDelayMs ?? 300, maxMs: MAX_RETRY_DELAY_MS }));
        }
      }
    }
    paypalCalls.inc({ operation: options.operation, outcome: 'unavailable' });
    throw new ProviderUnavailable(options.operation, lastProblem);
  }

  /** The cached token, or one new token request shared by every caller waiting for it. */
  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.expiresAt) return this.token.value;
    this.tokenRequest ??= this.requestToken().finally(() => { this.tokenRequest = undefined; });
    return this.tokenRequest;
  }

  private async requestToken(): Promise<string> {
    const { clientId, clientSecret } = this.credentials;
    const res = await this.send('POST', '/v1/oauth2/token', {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    }, 'grant_type=client_credentials', true);
    const body = parseJson(res.text) as { access_token?: string; expires_in?: number } & PaypalErrorBody | undefined;
    if (res.status >= 500 || res.status === 429) throw new RetryableFailure(`token: HTTP ${res.status}`);
    if (res.status >= 400 || !body?.access_token) {
      paypalCalls.inc({ operation: 'token', outcome: 'refused' });
      throw new ProviderRefused('token', res.status, issueOf(body), body?.error_description ?? 'PayPal refused our credentials (check PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET)');
    }
    // Renew a minute early so a token never expires between our check and PayPal's.
    const lifetimeMs = Math.max(0, ((body.expires_in ?? 300) - 60) * 1000);
    this.token = { value: body.access_token, expiresAt: Date.now() + lifetimeMs };
    return body.access_token;
  }

  private async send(method: string, path: string, headers: Record<string, string>, body: unknown, rawForm = false): Promise<{ status: number; text: string }> {
    const payload = body === undefined ? undefined : rawForm || typeof body === 'string' ? String(body) : JSON.stringify(body);
    try {
      const res = await fetch(`${this.credentials.apiBase}${path}`, {
        method,
        headers: { accept: 'application/json', ...(payload !== undefined && !rawForm ? { 'content-type': 'application/json' } : {}), ...headers },
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      const name = (err as Error).name;
      throw new RetryableFailure(name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${this.options.timeoutMs} ms` : `network: ${(err as Error).message}`);
    }
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

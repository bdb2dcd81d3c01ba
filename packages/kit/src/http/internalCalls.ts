import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { request } from 'undici';
import type { ServiceName } from '@leadforge/contracts';
import {
  BrokenCircuitError, CircuitBreakerPolicy, ConsecutiveBreaker, DelegateBackoff, RetryPolicy, circuitBreaker, handleType, retry, type IRetryBackoffContext,
} from 'cockatiel';
import { HttpError, forbidden, serviceUnavailable } from './errors.ts';
import { backoffWithJitter } from '../work/backoff.ts';

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/** preHandler for `/internal/*`: only callers holding the shared service token get in. */
export function internalGuard(token: string) {
  const expected = Buffer.from(token);
  return async (req: FastifyRequest) => {
    const given = Buffer.from(String(req.headers[INTERNAL_TOKEN_HEADER] ?? ''));
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw forbidden('Internal route: service token required', 'internal_only');
    }
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The check of a route declared `internal`: the service token (`internalGuard`), decorated by every service. */
    requireInternal: (request: FastifyRequest) => Promise<void>;
  }
}

export interface InternalCallOptions {
  body?: unknown;
  /** How long one attempt may take (default 5 s). */
  timeoutMs?: number;
  traceparent?: string;
  /**
   * Whether sending the call again after an attempt without an answer is harmless: true for a read,
   * or a write the callee dedupes (an idempotency key, setting a value). Only these are retried.
   * Default: true for GET, false otherwise.
   */
  idempotent?: boolean;
  /** false: one attempt even for an idempotent call (its caller has a quicker fallback than a retry). */
  retry?: boolean;
}

export interface InternalClientOptions {
  /** Further attempts of an idempotent call after a failure without an answer (default 2). */
  retries?: number;
  /** Ceiling of the wait before the first retry; doubles per retry up to retryMaxMs, jittered (default 100 ms, 1 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Calls in a row to one service left without an answer (after their retries) that open its breaker (default 5). */
  breakerThreshold?: number;
  /** How long an open breaker fails calls at once before letting one trial call through (default 10 s). */
  breakerOpenMs?: number;
}

/** An attempt that got no usable answer: no connection, no answer in time, or a 5xx. */
class NoAnswer extends Error {
  /** `answered`: the 5xx as the caller sees it once no attempt is left. */
  constructor(message: string, readonly answered?: HttpError) {
    super(message);
  }
}

/**
 * Synchronous service-to-service calls, only where the caller needs an answer now (docs/architecture.md,
 * "Shape"). Idempotent calls are tried again with jittered backoff; each service has a circuit breaker,
 * so while it is down callers fail at once instead of each waiting out its timeouts.
 */
export class InternalClient {
  private readonly retry: RetryPolicy;
  private readonly breakers = new Map<ServiceName, CircuitBreakerPolicy>();

  constructor(private readonly urls: Partial<Record<ServiceName, string>>, private readonly token: string, private readonly options: InternalClientOptions = {}) {
    const baseMs = options.retryBaseMs ?? 100;
    const maxMs = options.retryMaxMs ?? 1_000;
    this.retry = retry(handleType(NoAnswer), {
      maxAttempts: options.retries ?? 2,
      backoff: new DelegateBackoff((context: IRetryBackoffContext<unknown>) => backoffWithJitter(context.attempt, { baseMs, maxMs })),
    });
  }

  baseUrl(service: ServiceName): string {
    const url = this.urls[service];
    if (!url) throw serviceUnavailable(`The ${service} service is not configured (${service.toUpperCase()}_URL)`, 'service_unconfigured');
    return url;
  }

  /** Calls `method path` on `service`; a 4xx answer becomes the same HttpError here, so its detail reaches the user. */
  async call<T>(service: ServiceName, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: InternalCallOptions = {}): Promise<T> {
    const url = `${this.baseUrl(service)}${path}`;
    const attempt = () => this.attempt<T>(service, method, url, options);
    try {
      // The breaker counts calls, each after its retries: one slow blip is not an outage.
      return await this.breakerOf(service).execute(() => ((options.retry !== false && (options.idempotent ?? method === 'GET')) ? this.retry.execute(attempt) : attempt()));
    } catch (err) {
      if (err instanceof BrokenCircuitError) {
        throw serviceUnavailable(`The ${service} service is unavailable: its last calls failed; trying it again shortly`, 'upstream_circuit_open');
      }
      if (err instanceof NoAnswer) throw err.answered ?? serviceUnavailable(err.message, 'upstream_unavailable');
      throw err;
    }
  }

  private breakerOf(service: ServiceName): CircuitBreakerPolicy {
    let breaker = this.breakers.get(service);
    if (!breaker) {
      breaker = circuitBreaker(handleType(NoAnswer), {
        halfOpenAfter: this.options.breakerOpenMs ?? 10_000,
        breaker: new ConsecutiveBreaker(this.options.breakerThreshold ?? 5),
      });
      this.breakers.set(service, breaker);
    }
    return breaker;
  }

  private async attempt<T>(service: ServiceName, method: string, url: string, options: InternalCallOptions): Promise<T> {
    const timeout = options.timeoutMs ?? 5000;
    let res;
    try {
      res = await request(url, {
        method: method as 'GET',
        headers: {
          [INTERNAL_TOKEN_HEADER]: this.token,
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.traceparent ? { traceparent: options.traceparent } : {}),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (err) {
      throw new NoAnswer(`The ${service} service did not answer: ${(err as Error).message}`);
    }
    let text;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new NoAnswer(`The ${service} service did not finish its answer: ${(err as Error).message}`);
    }
    const parsed = text ? safeJson(text) : undefined;
    if (res.statusCode >= 400) {
      const detail = typeof parsed === 'object' && parsed && 'detail' in parsed ? String((parsed as { detail: unknown }).detail) : `${service} answered ${res.statusCode}`;
      const code = typeof parsed === 'object' && parsed && 'code' in parsed ? String((parsed as { code: unknown }).code) : undefined;
      if (res.statusCode >= 500) throw new NoAnswer(detail, new HttpError(502, detail, code));
      throw new HttpError(res.statusCode, detail, code);
    }
    return parsed as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

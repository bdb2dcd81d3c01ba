import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { request } from 'undici';
import type { ServiceName } from '@leadforge/contracts';
import { HttpError, forbidden, serviceUnavailable } from '../errors.ts';

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

export interface InternalCallOptions {
  body?: unknown;
  timeoutMs?: number;
  traceparent?: string;
}

/** Synchronous service-to-service calls, only where the caller needs an answer now (docs/architecture.md, "Shape"). */
export class InternalClient {
  constructor(private readonly urls: Partial<Record<ServiceName, string>>, private readonly token: string) {}

  baseUrl(service: ServiceName): string {
    const url = this.urls[service];
    if (!url) throw serviceUnavailable(`The ${service} service is not configured (${service.toUpperCase()}_URL)`, 'service_unconfigured');
    return url;
  }

  /** Calls `method path` on `service`; a 4xx answer becomes the same HttpError here, so its detail reaches the user. */
  async call<T>(service: ServiceName, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: InternalCallOptions = {}): Promise<T> {
    const timeout = options.timeoutMs ?? 5000;
    let res;
    try {
      res = await request(`${this.baseUrl(service)}${path}`, {
        method,
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
      throw serviceUnavailable(`The ${service} service did not answer: ${(err as Error).message}`, 'upstream_unavailable');
    }
    const text = await res.body.text();
    const parsed = text ? safeJson(text) : undefined;
    if (res.statusCode >= 400) {
      const detail = typeof parsed === 'object' && parsed && 'detail' in parsed ? String((parsed as { detail: unknown }).detail) : `${service} answered ${res.statusCode}`;
      const code = typeof parsed === 'object' && parsed && 'code' in parsed ? String((parsed as { code: unknown }).code) : undefined;
      throw new HttpError(res.statusCode >= 500 ? 502 : res.statusCode, detail, code);
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

/** An error that is an answer: it becomes `{ detail, code }` with its status, never a stack trace. */
export class HttpError extends Error {
  constructor(readonly statusCode: number, readonly detail: string, readonly code?: string, readonly headers?: Record<string, string>) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string, code?: string) => new HttpError(400, detail, code);
export const unauthorized = (detail = 'Authentication required', code?: string) => new HttpError(401, detail, code);
export const paymentRequired = (detail: string, code = 'insufficient_credits') => new HttpError(402, detail, code);
export const forbidden = (detail = 'You do not have permission to do this', code?: string) => new HttpError(403, detail, code);
export const notFound = (detail = 'Not found', code?: string) => new HttpError(404, detail, code);
export const conflict = (detail: string, code?: string) => new HttpError(409, detail, code);
export const tooManyRequests = (detail: string, retryAfterSeconds?: number) =>
  new HttpError(429, detail, 'rate_limited', retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : undefined);
export const serviceUnavailable = (detail: string, code?: string) => new HttpError(503, detail, code);
export const badGateway = (detail: string, code?: string) => new HttpError(502, detail, code);

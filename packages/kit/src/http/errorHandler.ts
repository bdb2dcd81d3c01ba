import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { HttpError } from './errors.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: { errorMessage?: string | Record<string, string> };
}

const CONTEXT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns the first schema violation into one sentence a person can act on. */
export function describeValidation(errors: AjvError[], context?: string): string {
  const first = errors[0];
  if (!first) return 'Invalid request';
  const custom = first.parentSchema?.errorMessage;
  if (typeof custom === 'string') return custom;
  if (custom && custom[first.keyword]) return custom[first.keyword];
  const field = first.keyword === 'required'
    ? String(first.params.missingProperty)
    : first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required') return `${field} is required`;
  if (first.keyword === 'additionalProperties') return `Unknown field: ${String(first.params.additionalProperty)}`;
  const where = field || CONTEXT_NAMES[context ?? ''] || 'request';
  return `${where} ${first.message ?? 'is invalid'}`;
}

const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but content-type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

/**
 * The database is restarting or out of reach (a failover, a restart): a passing fault the client
 * should retry, not a bug. Node socket errors, PostgreSQL's shutdown and start-up states (57P01-3,
 * 08xxx connection exceptions) and a pool that timed out waiting for a connection.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code !== 'string') return false;
  return ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send({ detail: error.detail, ...(error.code ? { code: error.code } : {}) });
    }
    const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
    if (fe.validation) {
      return reply.status(400).send({ detail: describeValidation(fe.validation, fe.validationContext), code: 'invalid_request' });
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail = (fe.code && FASTIFY_CLIENT_ERRORS[fe.code]) || fe.message || 'Bad request';
      return reply.status(status).send({ detail, code: fe.code ? fe.code.toLowerCase() : undefined });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ detail: 'The service is briefly unavailable; please try again in a few seconds', code: 'database_unavailable' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error; the problem has been logged', code: 'internal' });
  });

  const routePatterns: { method: string; regex: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const regex = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`);
    for (const method of methods) routePatterns.push({ method, regex });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = [...new Set(routePatterns.filter((r) => r.regex.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      return reply.status(405).header('allow', allowed.join(', ')).send({ detail: `Method ${request.method} is not allowed on ${path}`, code: 'method_not_allowed' });
    }
    return reply.status(404).send({ detail: `Not found: ${request.method} ${path}`, code: 'not_found' });
  });
}

const FRAMEWORK_ERRORS: Record<string, { status: number; detail: string; code: string }> = {
  FST_ERR_BAD_URL: { status: 400, detail: 'The address contains an invalid percent escape', code: 'bad_escape' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: 'A part of the address is too long', code: 'uri_too_long' },
};

const CLIENT_ERRORS: Record<string, { status: number; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request headers (or its address) are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request took too long to arrive' },
};

/**
 * Server options so that what Fastify or Node answer before any route runs (a bad escape in the
 * path, an overlong path parameter, oversized headers, a malformed request) is `{ detail }` too.
 */
export const detailedFrameworkErrors: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors: ((error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const known = FRAMEWORK_ERRORS[error.code];
    if (known) return reply.status(known.status).send({ detail: known.detail, code: known.code });
    return reply.status(400).send({ detail: 'The request could not be routed', code: 'bad_request' });
  }) as FastifyServerOptions['frameworkErrors'],
  clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, detail } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, detail: 'The request is not valid HTTP' };
    const body = JSON.stringify({ detail, code: http.STATUS_CODES[status]!.toLowerCase().replace(/\W+/g, '_') });
    if (socket.writable) {
      socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    socket.destroy(error);
  },
};

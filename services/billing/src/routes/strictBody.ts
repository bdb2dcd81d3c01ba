import type { FastifyRequest } from 'fastify';
import { badRequest } from '@leadforge/kit/http';

/**
 * The kit strips unknown fields; on money routes an unknown field (a price, a credit count) is
 * refused instead, so a client can never believe it chose what it pays.
 */
export function refuseUnknownFields(schema: { properties?: Record<string, unknown> }, hint: string) {
  const allowed = new Set(Object.keys(schema.properties ?? {}));
  return async (request: FastifyRequest) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    const unknown = Object.keys(body).find((key) => !allowed.has(key));
    if (unknown) throw badRequest(`Unknown field: ${unknown}. ${hint}`, 'unknown_field');
  };
}

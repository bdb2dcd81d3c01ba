import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { rateLimited } from '@leadforge/kit/http';
import { ErrorBody, OptOutRequest, OptOutResponse } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { requestOptOut } from '../domain/optOuts.ts';

const HOUR = 3_600_000;

/** A field of only spaces counts as not given. */
async function trimStrings(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (trimmed) body[key] = trimmed;
    else delete body[key];
  }
}

/** POST /api/opt-out — public: anyone may ask for their contact or site to be left out. */
export async function optOutRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  app.post('/api/opt-out', {
    bodyLimit: 16 * 1024,
    // Every attempt counts, valid or not, so the form cannot be used to probe or flood the list.
    onRequest: rateLimited(rt.ctx.counters, { name: 'opt-out-ip', max: rt.config.optOutsPerHour, windowMs: HOUR }),
    preValidation: trimStrings,
    schema: { body: OptOutRequest, response: { 201: OptOutResponse, 400: ErrorBody, 413: ErrorBody, 429: ErrorBody } },
  }, async (request, reply) => {
    const result = await requestOptOut(rt.ctx.db, request.body as OptOutRequest);
    return reply.status(201).send(result);
  });
}

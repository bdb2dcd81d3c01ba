import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { rateLimited } from '@leadforge/kit/http';
import { ContactConfigResponse, ContactRequest, ContactResponse, ErrorBody } from '@leadforge/contracts';
import { submitContactMessage } from '../domain/submissions.ts';
import type { ContactRuntime } from '../runtime.ts';

const HOUR = 3_600_000;

/** Whitespace-only fields count as empty, and stray spaces are not kept. */
async function trimStrings(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') body[key] = value.trim();
}

export async function contactRoutes(app: App, rt: ContactRuntime): Promise<void> {
  const { db, log } = rt.ctx;
  const { robotCheck } = rt;

  app.get('/api/contact/config', { schema: { response: { 200: ContactConfigResponse } } }, async () => ({
    provider: robotCheck.provider,
    site_key: robotCheck.siteKey,
    test_mode: robotCheck.testMode,
  }));

  app.post('/api/contact', {
    // Ten thousand characters of multi-byte text fit; anything far larger is refused unread.
    bodyLimit: 64 * 1024,
    // Every attempt counts, valid or not, so a bot cannot probe the form for free.
    onRequest: rateLimited(rt.ctx.counters, { name: 'contact-ip', max: rt.limits.perIpPerHour, windowMs: HOUR }),
    preValidation: trimStrings,
    schema: { body: ContactRequest, response: { 201: ContactResponse, 400: ErrorBody, 413: ErrorBody, 429: ErrorBody, 503: ErrorBody } },
  }, async (request, reply) => {
    const input = request.body as ContactRequest;
    const submissionId = await submitContactMessage(db, robotCheck.verifier, { ...input, email: input.email.toLowerCase() }, {
      remoteIp: request.ip,
      userAgent: request.headers['user-agent'],
    }, log);
    rt.ctx.relay.wake();
    return reply.status(201).send({ success: true, submission_id: submissionId });
  });
}

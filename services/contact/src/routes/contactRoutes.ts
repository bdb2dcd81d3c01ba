import type { App } from '@leadforge/kit/service';
import { handle, rateLimited, trimBodyStrings } from '@leadforge/kit/http';
import { CONTACT_ROUTES } from '@leadforge/contracts';
import { submitContactMessage } from '../domain/submissions.ts';
import type { ContactRuntime } from '../runtime.ts';

const HOUR = 3_600_000;

/** Whitespace-only fields count as empty, and stray spaces are not kept. */
const trimStrings = trimBodyStrings();

export async function contactRoutes(app: App, rt: ContactRuntime): Promise<void> {
  const { db, log } = rt.ctx;
  const { robotCheck } = rt;

  handle(app, CONTACT_ROUTES.config, async () => ({
    provider: robotCheck.provider,
    site_key: robotCheck.siteKey,
    test_mode: robotCheck.testMode,
  }));

  handle(app, CONTACT_ROUTES.send, {
    // Ten thousand characters of multi-byte text fit; anything far larger is refused unread.
    bodyLimit: 64 * 1024,
    // Every attempt counts, valid or not, so a bot cannot probe the form for free.
    onRequest: rateLimited(rt.ctx.counters, { name: 'contact-ip', max: rt.limits.perIpPerHour, windowMs: HOUR }),
    preValidation: trimStrings,
  }, async (request, reply) => {
    const input = request.body;
    const submissionId = await submitContactMessage(db, robotCheck.verifier, { ...input, email: input.email.toLowerCase() }, {
      remoteIp: request.ip,
      userAgent: request.headers['user-agent'],
    }, log);
    rt.ctx.relay.wake();
    return reply.status(201).send({ success: true, submission_id: submissionId });
  });
}

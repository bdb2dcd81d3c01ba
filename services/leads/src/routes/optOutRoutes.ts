import type { App } from '@leadforge/kit/service';
import { handle, rateLimited, trimBodyStrings } from '@leadforge/kit/http';
import { OPT_OUT_CONFIRMED, OPT_OUT_RECEIVED, OPT_OUT_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { confirmOptOut, requestOptOut, type OptOutDeps } from '../domain/optOuts.ts';

const HOUR = 3_600_000;

/** A field of only spaces counts as not given. */
const trimStrings = trimBodyStrings({ dropEmpty: true });

/**
 * POST /api/opt-out — public: anyone may ask for their contact or site to be left out; the email's
 * owner confirms by its mailed link (POST /api/opt-out/confirm), an administrator decides the rest.
 */
export async function optOutRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const deps: OptOutDeps = { db: rt.ctx.db, clock: rt.clock, publicUrl: rt.ctx.config.publicUrl, mail: rt.mail };
  handle(app, OPT_OUT_ROUTES.request, {
    bodyLimit: 16 * 1024,
    // Every attempt counts, valid or not, so the form cannot be used to probe or flood the list.
    onRequest: rateLimited(rt.ctx.counters, { name: 'opt-out-ip', max: rt.config.optOutsPerHour, windowMs: HOUR }),
    preValidation: trimStrings,
  }, async (request, reply) => {
    await requestOptOut(deps, request.body);
    rt.ctx.relay.wake();
    // The same words whatever the contact: whether it is in anyone's leads is not the sender's to learn.
    return reply.status(202).send({ message: OPT_OUT_RECEIVED });
  });

  handle(app, OPT_OUT_ROUTES.confirm, {
    onRequest: rateLimited(rt.ctx.counters, { name: 'opt-out-confirm-ip', max: rt.config.optOutsPerHour, windowMs: HOUR }),
  }, async (request) => {
    await confirmOptOut(deps, request.body.token);
    return { message: OPT_OUT_CONFIRMED };
  });
}

import type { App } from '@leadforge/kit/service';
import { handle, rateLimited, trimBodyStrings } from '@leadforge/kit/http';
import { OPT_OUT_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { requestOptOut } from '../domain/optOuts.ts';

const HOUR = 3_600_000;

/** A field of only spaces counts as not given. */
const trimStrings = trimBodyStrings({ dropEmpty: true });

/** POST /api/opt-out — public: anyone may ask for their contact or site to be left out. */
export async function optOutRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  handle(app, OPT_OUT_ROUTES.request, {
    bodyLimit: 16 * 1024,
    // Every attempt counts, valid or not, so the form cannot be used to probe or flood the list.
    onRequest: rateLimited(rt.ctx.counters, { name: 'opt-out-ip', max: rt.config.optOutsPerHour, windowMs: HOUR }),
    preValidation: trimStrings,
  }, async (request, reply) => {
    const result = await requestOptOut(rt.ctx.db, request.body);
    return reply.status(201).send(result);
  });
}

import type { App } from '@leadforge/kit/service';
import { handle } from '@leadforge/kit/http';
import { OPT_OUT_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { decideOptOut, listOptOuts, previewOptOut } from '../domain/optOuts.ts';

/** The administrators' side of opt-outs: the list, what approving a website would blank, decisions on websites, and lifting a suppression. */
export async function adminOptOutRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;

  handle(app, OPT_OUT_ROUTES.list, async (request) => listOptOuts(db, request.query));

  handle(app, OPT_OUT_ROUTES.preview, async (request) => previewOptOut(db, request.params.id, request.query.scope));

  handle(app, OPT_OUT_ROUTES.approve, {
    // No body is an approval of the host asked for, as before scopes existed.
    preValidation: async (request) => { request.body ??= {}; },
  }, async (request) => decideOptOut(db, request.params.id, 'approve', request.body.scope));

  handle(app, OPT_OUT_ROUTES.reject, async (request) => decideOptOut(db, request.params.id, 'reject'));

  handle(app, OPT_OUT_ROUTES.lift, async (request) => decideOptOut(db, request.params.id, 'lift'));
}

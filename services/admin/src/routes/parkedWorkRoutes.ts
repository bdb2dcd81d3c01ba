import type { App } from '@leadforge/kit/service';
import { handle, principalOf } from '@leadforge/kit/http';
import { PARKED_WORK_ROUTES } from '@leadforge/contracts';
import { audited } from '../domain/auditLog.ts';
import { parkedWorkAcross, replayParkedWorkOf } from '../domain/parkedWork.ts';
import type { AdminRuntime } from '../runtime.ts';

/** The panel's parked-work view across services, and its replay (written to the audit log). */
export async function parkedWorkRoutes(app: App, { ctx }: AdminRuntime): Promise<void> {
  handle(app, PARKED_WORK_ROUTES.parkedWork, async (request) => parkedWorkAcross(ctx, request.query));

  handle(app, PARKED_WORK_ROUTES.replayParkedWork, async (request) => {
    const { body } = request;
    return audited(ctx, { actor: principalOf(request), action: 'parked_work.replay', targetId: body.service, request: body }, () => replayParkedWorkOf(ctx, body));
  });
}

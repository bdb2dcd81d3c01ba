import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { handle, principalOf } from '@leadforge/kit/http';
import { ADMIN_ROUTES } from '@leadforge/contracts';
import { audited } from '../domain/auditLog.ts';
import { parseUserAction, type UserActionCommand } from '../domain/userActionCommand.ts';
import type { AdminRuntime } from '../runtime.ts';

const idempotencyKeyOf = (request: FastifyRequest) => (request.headers['idempotency-key'] as string | undefined) ?? crypto.randomUUID();

/** The panel's write side: each action goes to the owner of the data and is written to the audit log. */
export async function actionRoutes(app: App, { ctx, actions }: AdminRuntime): Promise<void> {
  function run(request: FastifyRequest, userId: string, command: UserActionCommand, body: Record<string, unknown>) {
    const actor = principalOf(request);
    return audited(ctx, { actor, action: command.audit, targetId: userId, request: body }, () => {
      switch (command.kind) {
        case 'credits': return actions.adjustCredits(actor, userId, command.change, idempotencyKeyOf(request));
        case 'role': return actions.changeRole(actor, userId, command.role);
        case 'status': return actions.changeStatus(actor, userId, command.status);
      }
    });
  }

  handle(app, ADMIN_ROUTES.updateCredits, async (request) => {
    const { body } = request;
    return run(request, body.user_id, { kind: 'credits', change: body.credits_change, audit: 'credits.adjust' }, body);
  });

  handle(app, ADMIN_ROUTES.userAction, async (request) => {
    const { body } = request;
    return run(request, body.user_id, parseUserAction(body.action, body.credits_change), body);
  });
}

import crypto from 'node:crypto';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { principalOf } from '@leadforge/kit/http';
import { AdminActionResponse, ErrorBody, UpdateCreditsRequest, UserActionRequest } from '@leadforge/contracts';
import { audited } from '../domain/auditLog.ts';
import { parseUserAction, type UserActionCommand } from '../domain/userActionCommand.ts';
import type { AdminRuntime } from '../runtime.ts';

/** A client may name its attempt so a retried or double-clicked credit change applies once. */
const ActionHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:-]+$', errorMessage: 'Idempotency-Key must be 1-100 letters, digits or ._:-' })),
});
const RESPONSES = { 200: AdminActionResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody, 503: ErrorBody };

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

  app.post('/api/admin/update-credits', {
    schema: { body: UpdateCreditsRequest, headers: ActionHeaders, response: RESPONSES },
    onRequest: app.requireAdmin,
  }, async (request) => {
    const body = request.body as UpdateCreditsRequest;
    return run(request, body.user_id, { kind: 'credits', change: body.credits_change, audit: 'credits.adjust' }, body);
  });

  app.post('/api/admin/user-action', {
    schema: { body: UserActionRequest, headers: ActionHeaders, response: RESPONSES },
    onRequest: app.requireAdmin,
  }, async (request) => {
    const body = request.body as UserActionRequest;
    return run(request, body.user_id, parseUserAction(body.action, body.credits_change), body);
  });
}

import { Type } from 'typebox';
import type { App } from '@leadforge/kit/service';
import { internalGuard, notFound } from '@leadforge/kit/http';
import { ApiKeyList, MailRecipient, SetRoleRequest, SetStatusRequest } from '@leadforge/contracts';
import { listApiKeys } from '../domain/apiKeys.ts';
import { findMailRecipient, findStanding, setRole, setStatus } from '../domain/users.ts';
import type { AuthRuntime } from '../runtime.ts';

const UserParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Routes other services call; never routed by the gateway. */
export async function internalRoutes(app: App, rt: AuthRuntime): Promise<void> {
  const guard = internalGuard(rt.ctx.config.internalToken);
  const view = (u: { id: string; name: string; email: string; role: string; status: string }) =>
    ({ id: u.id, name: u.name, email: u.email, role: u.role, status: u.status });

  app.get('/internal/users/:id/standing', { schema: { params: UserParams }, preHandler: guard }, async (request) => {
    const standing = await findStanding(rt.ctx.db, request.params.id);
    if (!standing) throw notFound('User not found', 'user_not_found');
    return standing;
  });

  // Billing and leads send their own emails to the user: the address is auth's to give.
  app.get('/internal/users/:id/mail-recipient', { schema: { params: UserParams, response: { 200: MailRecipient } }, preHandler: guard }, async (request) => {
    const recipient = await findMailRecipient(rt.ctx.db, request.params.id);
    if (!recipient) throw notFound('No active user to write to', 'user_not_found');
    return recipient;
  });

  // The admin panel's per-user view lists a user's working keys (never their secrets).
  app.get('/internal/users/:id/api-keys', { schema: { params: UserParams, response: { 200: ApiKeyList } }, preHandler: guard }, async (request) => (
    { keys: await listApiKeys(rt.ctx.db, request.params.id) }
  ));

  app.post('/internal/users/:id/role', { schema: { params: UserParams, body: SetRoleRequest }, preHandler: guard }, async (request) => {
    const { role, actor_id } = request.body;
    const user = await setRole(rt.ctx.db, request.params.id, role, actor_id);
    rt.ctx.relay.wake();
    return view(user);
  });

  app.post('/internal/users/:id/status', { schema: { params: UserParams, body: SetStatusRequest }, preHandler: guard }, async (request) => {
    const { status, actor_id } = request.body;
    const user = await setStatus(rt.ctx.db, request.params.id, status, actor_id);
    rt.ctx.relay.wake();
    return view(user);
  });
}

import type { App } from '@leadforge/kit/service';
import { handle, notFound, principalOf, rateLimited } from '@leadforge/kit/http';
import { AUTH_ROUTES } from '@leadforge/contracts';
import { confirmPasswordReset, requestPasswordReset } from '../domain/passwordResets.ts';
import { changePassword, updateProfile } from '../domain/passwordChanges.ts';
import { findUser } from '../domain/users.ts';
import { normaliseEmail } from '../domain/emailAddress.ts';
import { deleteAccount } from '../domain/accountDeletion.ts';
import { exportAccount } from '../domain/accountExport.ts';
import type { AuthRuntime } from '../runtime.ts';
import { trimEmail } from './publicRoutes.ts';
import { sessionReplies } from './sessionReplies.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RESET_REQUESTED_MESSAGE = 'If an account exists for this email, we have sent a link to reset its password. It works for one hour.';

/** Password reset, password change and profile: what a user does to their own account. */
export async function accountRoutes(app: App, rt: AuthRuntime): Promise<void> {
  const { toUser, session } = sessionReplies(rt);

  handle(app, AUTH_ROUTES.requestPasswordReset, {
    preValidation: trimEmail,
    preHandler: rateLimited(rt.ctx.counters,
      { name: 'reset-ip', max: rt.limits.resetPerIpPerHour, windowMs: HOUR },
      { name: 'reset-email', max: rt.limits.resetPerEmailPerHour, windowMs: HOUR, key: (request) => normaliseEmail(request.body.email) },
    ),
  }, async (request, reply) => {
    // The same answer at the same speed, whether or not the account exists: the token and its email
    // are made after the reply.
    const { email } = request.body;
    requestPasswordReset(rt.ctx.db, email, rt.mail)
      .catch((err) => request.log.error({ err }, 'password reset request failed'));
    return reply.status(202).send({ message: RESET_REQUESTED_MESSAGE });
  });

  handle(app, AUTH_ROUTES.confirmPasswordReset, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'reset-confirm-ip', max: rt.limits.resetPerIpPerHour, windowMs: HOUR }),
  }, async (request) => {
    const { token, password } = request.body;
    const { apiKeysRevoked } = await confirmPasswordReset(rt.ctx.db, token, password, rt.mail);
    const revoked = apiKeysRevoked > 0 ? ` ${apiKeysRevoked} API key${apiKeysRevoked === 1 ? ' was' : 's were'} revoked.` : '';
    return { message: `Your password has been reset. Please log in with your new password.${revoked}`, api_keys_revoked: apiKeysRevoked };
  });

  handle(app, AUTH_ROUTES.changePassword, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'password-change-user', max: rt.limits.passwordChangePerUserPer15Minutes, windowMs: 15 * MINUTE, key: (request) => principalOf(request).id }),
  }, async (request) => {
    const { current_password, new_password, keep_api_keys } = request.body;
    const { user, apiKeysRevoked } = await changePassword(rt.ctx.db, principalOf(request).id, current_password, new_password, rt.mail, keep_api_keys === true);
    // Every other session ends; this one goes on with a token of the new generation.
    return { ...(await session(user)), api_keys_revoked: apiKeysRevoked };
  });

  handle(app, AUTH_ROUTES.deleteAccount, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'password-change-user', max: rt.limits.passwordChangePerUserPer15Minutes, windowMs: 15 * MINUTE, key: (request) => principalOf(request).id }),
  }, async (request) => {
    await deleteAccount(rt.ctx.db, principalOf(request).id, request.body.password, rt.mail);
    rt.ctx.relay.wake();
    return { message: 'Your account has been deleted.' };
  });

  handle(app, AUTH_ROUTES.exportAccount, {
    // Each export reads every service: a few a minute is plenty for one person.
    preHandler: rateLimited(rt.ctx.counters, { name: 'account-export-user', max: rt.limits.exportPerUserPer15Minutes, windowMs: 15 * MINUTE, key: (request) => principalOf(request).id }),
  }, async (request, reply) => {
    const user = await findUser(rt.ctx.db, principalOf(request).id);
    if (!user || user.status !== 'active') throw notFound('User not found', 'user_not_found');
    const data = await exportAccount(rt.ctx, rt.mail, user, await rt.balances.of(user.id));
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="leadforge-data-${data.exported_at.slice(0, 10)}.json"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(data, null, 2));
  });

  handle(app, AUTH_ROUTES.updateProfile, async (request) => {
    const user = await updateProfile(rt.ctx.db, principalOf(request).id, request.body);
    rt.ctx.relay.wake();
    return toUser(user);
  });
}

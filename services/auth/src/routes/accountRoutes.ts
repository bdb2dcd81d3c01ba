import type { App } from '@leadforge/kit/service';
import { notFound, principalOf, rateLimited } from '@leadforge/kit/http';
import {
  ChangePasswordRequest, DeleteAccountRequest, ErrorBody, MessageResponse, PasswordChangedResponse, PasswordResetConfirm, PasswordResetDone, PasswordResetRequest, UpdateProfileRequest, User,
} from '@leadforge/contracts';
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
  const errors = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody };
  const publicUrl = rt.ctx.config.publicUrl;

  app.post('/api/auth/password-reset', {
    schema: { body: PasswordResetRequest, response: { 202: MessageResponse, ...errors } },
    preValidation: trimEmail,
    preHandler: rateLimited(rt.ctx.counters,
      { name: 'reset-ip', max: rt.limits.resetPerIpPerHour, windowMs: HOUR },
      { name: 'reset-email', max: rt.limits.resetPerEmailPerHour, windowMs: HOUR, key: (request) => normaliseEmail((request.body as PasswordResetRequest).email) },
    ),
  }, async (request, reply) => {
    // The same answer at the same speed, whether or not the account exists: the token and its email
    // are made after the reply.
    const { email } = request.body as PasswordResetRequest;
    requestPasswordReset(rt.ctx.db, email, publicUrl)
      .then((queued) => { if (queued) rt.mail.wake(); })
      .catch((err) => request.log.error({ err }, 'password reset request failed'));
    return reply.status(202).send({ message: RESET_REQUESTED_MESSAGE });
  });

  app.post('/api/auth/password-reset/confirm', {
    schema: { body: PasswordResetConfirm, response: { 200: PasswordResetDone, ...errors } },
    preHandler: rateLimited(rt.ctx.counters, { name: 'reset-confirm-ip', max: rt.limits.resetPerIpPerHour, windowMs: HOUR }),
  }, async (request) => {
    const { token, password } = request.body as PasswordResetConfirm;
    const { apiKeysRevoked } = await confirmPasswordReset(rt.ctx.db, token, password, publicUrl);
    rt.mail.wake();
    const revoked = apiKeysRevoked > 0 ? ` ${apiKeysRevoked} API key${apiKeysRevoked === 1 ? ' was' : 's were'} revoked.` : '';
    return { message: `Your password has been reset. Please log in with your new password.${revoked}`, api_keys_revoked: apiKeysRevoked };
  });

  app.post('/api/auth/password', {
    schema: { body: ChangePasswordRequest, response: { 200: PasswordChangedResponse, ...errors } },
    preHandler: [
      app.requireUser,
      rateLimited(rt.ctx.counters, { name: 'password-change-user', max: rt.limits.passwordChangePerUserPer15Minutes, windowMs: 15 * MINUTE, key: (request) => principalOf(request).id }),
    ],
  }, async (request) => {
    const { current_password, new_password, keep_api_keys } = request.body as ChangePasswordRequest;
    const { user, apiKeysRevoked } = await changePassword(rt.ctx.db, principalOf(request).id, current_password, new_password, publicUrl, keep_api_keys === true);
    rt.mail.wake();
    // Every other session ends; this one goes on with a token of the new generation.
    return { ...(await session(user)), api_keys_revoked: apiKeysRevoked };
  });

  app.delete('/api/account', {
    schema: { body: DeleteAccountRequest, response: { 200: MessageResponse, ...errors } },
    preHandler: [
      app.requireUser,
      rateLimited(rt.ctx.counters, { name: 'password-change-user', max: rt.limits.passwordChangePerUserPer15Minutes, windowMs: 15 * MINUTE, key: (request) => principalOf(request).id }),
    ],
  }, async (request) => {
    await deleteAccount(rt.ctx.db, principalOf(request).id, (request.body as DeleteAccountRequest).password, publicUrl);
    rt.ctx.relay.wake();
    rt.mail.wake();
    return { message: 'Your account has been deleted.' };
  });

  app.get('/api/account/export', {
    schema: { response: { 401: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody } },
    preHandler: [
      app.requireUser,
      // Each export reads every service: a few a minute is plenty for one person.
      rateLimited(rt.ctx.counters, { name: 'account-export-user', max: rt.limits.exportPerUserPer15Minutes, windowMs: 15 * MINUTE, key: (request) => principalOf(request).id }),
    ],
  }, async (request, reply) => {
    const user = await findUser(rt.ctx.db, principalOf(request).id);
    if (!user || user.status !== 'active') throw notFound('User not found', 'user_not_found');
    const data = await exportAccount(rt.ctx, user, await rt.balances.of(user.id));
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="leadforge-data-${data.exported_at.slice(0, 10)}.json"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(data, null, 2));
  });

  app.patch('/api/auth/me', {
    schema: { body: UpdateProfileRequest, response: { 200: User, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const user = await updateProfile(rt.ctx.db, principalOf(request).id, request.body as UpdateProfileRequest);
    rt.ctx.relay.wake();
    return toUser(user);
  });
}

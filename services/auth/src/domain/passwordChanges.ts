import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import { badRequest, notFound } from '@leadforge/kit/http';
import type { AccountMailer } from '../mail/accountMails.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { countLiveApiKeys, revokeAllApiKeys } from './apiKeys.ts';
import type { UserRow } from './users.ts';

/** What a password change or reset did besides setting the hash. */
export interface PasswordReplaced {
  user: UserRow;
  apiKeysRevoked: number;
}

/**
 * Sets a new password hash, ends every existing session (tokens of an older generation are refused),
 * revokes the user's live API keys unless told to keep them (a key made by whoever held a session
 * would otherwise outlive the recovery) and queues the "your password was changed" email saying so,
 * all in the caller's transaction.
 */
export async function replacePassword(
  trx: Knex.Transaction, user: UserRow, newHash: string, mailer: AccountMailer, how: 'reset' | 'changed', keepApiKeys = false,
): Promise<PasswordReplaced> {
  const [updated] = await trx('users')
    .where({ id: user.id })
    .update({ password_hash: newHash, session_generation: trx.raw('session_generation + 1'), updated_at: trx.fn.now() })
    .returning('*');
  await trx('password_reset_tokens').where({ user_id: user.id }).delete();
  const apiKeys = keepApiKeys
    ? { revoked: 0, kept: await countLiveApiKeys(trx, user.id) }
    : { revoked: await revokeAllApiKeys(trx, user.id), kept: 0 };
  await mailer.send(trx, { to: user.email, template: 'password-changed', data: { name: user.name, how, apiKeys } });
  return { user: updated as UserRow, apiKeysRevoked: apiKeys.revoked };
}

/** A signed-in user changes their password: the current one is required. */
export async function changePassword(
  db: Db, userId: string, currentPassword: string, newPassword: string, mailer: AccountMailer, keepApiKeys = false,
): Promise<PasswordReplaced> {
  const user: UserRow | undefined = await db('users').where({ id: userId }).first();
  if (!user || user.status !== 'active') throw notFound('User not found', 'user_not_found');
  // 400, not 401: the session is fine, the form is wrong.
  if (!(await verifyPassword(currentPassword, user.password_hash))) throw badRequest('Your current password is incorrect', 'wrong_password');
  const newHash = await hashPassword(newPassword);
  return db.transaction(async (trx) => {
    const locked: UserRow = await trx('users').where({ id: userId }).forUpdate().first();
    // Changed meanwhile by another request: the password just checked is no longer current.
    if (locked.password_hash !== user.password_hash) throw badRequest('Your current password is incorrect', 'wrong_password');
    return replacePassword(trx, locked, newHash, mailer, 'changed', keepApiKeys);
  });
}

/**
 * A user changes their name or their email preferences. A new name is announced (`user.renamed`), so
 * the admin read models show it.
 */
export async function updateProfile(db: Db, userId: string, changes: { name?: string; notify_search_ready?: boolean }): Promise<UserRow> {
  const name = changes.name?.trim();
  if (changes.name !== undefined && !name) throw badRequest('Please enter your name', 'name_required');
  return db.transaction(async (trx) => {
    const user: UserRow | undefined = await trx('users').where({ id: userId, status: 'active' }).forUpdate().first();
    if (!user) throw notFound('User not found', 'user_not_found');
    const fields = {
      ...(name !== undefined && name !== user.name ? { name } : {}),
      ...(changes.notify_search_ready !== undefined ? { notify_search_ready: changes.notify_search_ready } : {}),
    };
    if (Object.keys(fields).length === 0) return user;
    const [updated] = await trx('users').where({ id: userId }).update({ ...fields, updated_at: trx.fn.now() }).returning('*');
    if (fields.name) await emitEvent(trx, 'user.renamed', userId, { user_id: userId, name: fields.name });
    return updated as UserRow;
  });
}

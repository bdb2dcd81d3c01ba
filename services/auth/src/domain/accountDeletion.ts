import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit';
import { badRequest, conflict, emitEvent, notFound } from '@leadforge/kit';
import { enqueueMail } from '../mail/mailOutbox.ts';
import { accountDeletedMail } from '../mail/mailMessages.ts';
import { verifyPassword } from './passwords.ts';
import { normaliseEmail, type UserRow } from './users.ts';

/**
 * What a deleted account keeps in place of its address: a hash, so the address itself is gone but
 * cannot be registered again for a second signup grant.
 */
export function deletedEmailMarker(email: string): string {
  return `deleted-${crypto.createHash('sha256').update(normaliseEmail(email)).digest('hex')}@deleted.invalid`;
}

/** Refuses a registration with the address of a deleted account. */
export async function refuseDeletedEmail(db: Db, email: string): Promise<void> {
  if (await db('users').where({ email: deletedEmailMarker(email) }).first()) {
    throw conflict('This email belonged to a deleted account; please contact support to reopen it', 'email_deleted');
  }
}

/**
 * The user deletes their account (their password confirms it): name and address are replaced, the
 * password can no longer match, every session ends, `user.status_changed` tells the other services,
 * and a last email confirms it to the address that was.
 */
export async function deleteAccount(db: Db, userId: string, password: string, publicUrl: string): Promise<void> {
  const user: UserRow | undefined = await db('users').where({ id: userId }).first();
  if (!user || user.status === 'deleted') throw notFound('User not found', 'user_not_found');
  if (!(await verifyPassword(password, user.password_hash))) throw badRequest('Your password is incorrect', 'wrong_password');
  await db.transaction(async (trx) => {
    await trx('users').where({ id: userId }).update({
      name: 'Deleted user',
      email: deletedEmailMarker(user.email),
      // Not a scrypt hash: no password ever matches it.
      password_hash: 'deleted',
      status: 'deleted',
      session_generation: trx.raw('session_generation + 1'),
      updated_at: trx.fn.now(),
    });
    await trx('password_reset_tokens').where({ user_id: userId }).delete();
    await emitEvent(trx, 'user.status_changed', userId, { user_id: userId, status: 'deleted', actor_id: userId });
    await enqueueMail(trx, accountDeletedMail(user.email, user.name, publicUrl));
  });
}

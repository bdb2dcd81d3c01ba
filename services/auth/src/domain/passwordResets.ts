import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit/db';
import { badRequest } from '@leadforge/kit/http';
import type { AccountMailer } from '../mail/accountMails.ts';
import { hashPassword } from './passwords.ts';
import { replacePassword, type PasswordReplaced } from './passwordChanges.ts';
import type { UserRow } from './users.ts';
import { normaliseEmail } from './emailAddress.ts';

export const RESET_TOKEN_TTL_MS = 3600_000;
const INVALID_LINK = 'This password reset link is invalid or has expired; please ask for a new one';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Queues a reset email for an active account; does nothing (and says nothing) for any other address,
 * so the answer never tells whether an account exists. A new request replaces older tokens.
 */
export async function requestPasswordReset(db: Db, emailInput: string, mailer: AccountMailer): Promise<boolean> {
  const user: UserRow | undefined = await db('users').where({ email: normaliseEmail(emailInput) }).first();
  if (!user || user.status !== 'active') return false;
  const token = crypto.randomBytes(32).toString('base64url');
  await db.transaction(async (trx) => {
    // One request at a time per account, so "a newer request replaces older tokens" holds under races.
    await trx('users').where({ id: user.id }).forUpdate().first();
    await trx('password_reset_tokens').where({ user_id: user.id }).delete();
    await trx('password_reset_tokens').insert({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + RESET_TOKEN_TTL_MS) });
    await mailer.send(trx, { to: user.email, template: 'password-reset', data: { name: user.name, token }, giveUpAfterMs: RESET_TOKEN_TTL_MS });
  });
  return true;
}

/**
 * Sets the password named by a valid reset token; the token is spent whatever happens next. Every API
 * key is revoked: whoever made the reset necessary may have made keys.
 */
export async function confirmPasswordReset(db: Db, token: string, password: string, mailer: AccountMailer): Promise<PasswordReplaced> {
  const newHash = await hashPassword(password);
  return db.transaction(async (trx) => {
    // Deleting is the claim: of two concurrent uses, only one gets the row back.
    const [spent] = await trx('password_reset_tokens').where({ token_hash: hashToken(token) }).delete().returning('*');
    if (!spent || new Date(spent.expires_at).getTime() <= Date.now()) throw badRequest(INVALID_LINK, 'invalid_reset_token');
    const user: UserRow | undefined = await trx('users').where({ id: spent.user_id }).forUpdate().first();
    if (!user || user.status !== 'active') throw badRequest(INVALID_LINK, 'invalid_reset_token');
    return replacePassword(trx, user, newHash, mailer, 'reset');
  });
}

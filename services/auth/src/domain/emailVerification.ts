import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import { badRequest } from '@leadforge/kit/http';
import type { AccountMailer } from '../mail/accountMails.ts';

interface VerifiedUser {
  id: string;
  email: string;
  role: 'user' | 'admin';
  status: string;
  email_verified_at: Date | null;
}

export const VERIFICATION_TOKEN_TTL_MS = 48 * 3600_000;
export const INVALID_VERIFICATION_LINK = 'This verification link is invalid or has expired';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** Queues the "confirm your email" mail of a new account, in the transaction that creates it. */
export async function queueEmailVerification(trx: Knex.Transaction, mail: AccountMailer, user: { id: string; email: string; name: string }): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url');
  await trx('email_verification_tokens').insert({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + VERIFICATION_TOKEN_TTL_MS) });
  await mail.send(trx, { to: user.email, userId: user.id, template: 'email-verification', data: { name: user.name, token }, giveUpAfterMs: VERIFICATION_TOKEN_TTL_MS });
}

/**
 * Marks the address of a valid verification token as its owner's (the token is spent). An address
 * named in ADMIN_EMAILS becomes admin here, and only here or by `npm run user:promote`: registering an
 * address is no proof of owning its mailbox.
 */
export async function verifyEmail(db: Db, token: string, adminEmails: Set<string>): Promise<{ promoted: boolean }> {
  return db.transaction(async (trx) => {
    // Deleting is the claim: of two concurrent uses, only one gets the row back.
    const [spent] = await trx('email_verification_tokens').where({ token_hash: hashToken(token) }).delete().returning('*');
    if (!spent) throw badRequest(INVALID_VERIFICATION_LINK, 'invalid_verification_token');
    if (new Date(spent.expires_at).getTime() <= Date.now()) throw badRequest(`${INVALID_VERIFICATION_LINK}: it worked for 48 hours`, 'verification_token_expired');
    const user: VerifiedUser | undefined = await trx('users').where({ id: spent.user_id }).forUpdate().first();
    if (!user || user.status === 'deleted') throw badRequest(INVALID_VERIFICATION_LINK, 'invalid_verification_token');
    const promoted = adminEmails.has(user.email) && user.role !== 'admin';
    await trx('users').where({ id: user.id })
      .update({ email_verified_at: user.email_verified_at ?? trx.fn.now(), ...(promoted ? { role: 'admin' } : {}), updated_at: trx.fn.now() });
    if (promoted) await emitEvent(trx, 'user.role_changed', user.id, { user_id: user.id, role: 'admin' });
    return { promoted };
  });
}

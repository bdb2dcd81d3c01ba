import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import { badRequest, notFound } from '@leadforge/kit/http';
import type { AccountMailer } from '../mail/accountMails.ts';
import { verifyPassword } from './passwords.ts';
import type { UserRow } from './users.ts';
import { emailSha256, withheldGrantHash } from './withheldSignupGrants.ts';

/** The address of a deleted account's row: its id alone, unique and never an address anyone has. */
export const deletedEmailPlaceholder = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * The user deletes their account (their password confirms it). In one transaction the login ends
 * (status `deleted`, a password nothing matches, every token refused), the name and address leave
 * auth's tables (an HMAC of the address withholds a second signup grant), emails of the address
 * already sent or still queued lose it, `account.deleted` tells every other service to erase the
 * user's data, and a last email confirms it to the address that was.
 */
export async function deleteAccount(db: Db, userId: string, password: string, mailer: AccountMailer): Promise<void> {
  const user: UserRow | undefined = await db('users').where({ id: userId }).first();
  if (!user || user.status === 'deleted') throw notFound('User not found', 'user_not_found');
  if (!(await verifyPassword(password, user.password_hash))) throw badRequest('Your password is incorrect', 'wrong_password');
  const grantHash = await withheldGrantHash(db, user.email);
  await db.transaction(async (trx) => {
    const [deleted] = await trx('users').where({ id: userId }).whereNot({ status: 'deleted' }).update({
      name: 'Deleted user',
      email: deletedEmailPlaceholder(userId),
      // Not a scrypt hash: no password ever matches it.
      password_hash: 'deleted',
      status: 'deleted',
      notify_search_ready: false,
      session_generation: trx.raw('session_generation + 1'),
      updated_at: trx.fn.now(),
    }).returning('updated_at');
    // A concurrent deletion of the same account got there first.
    if (!deleted) throw notFound('User not found', 'user_not_found');
    await trx('password_reset_tokens').where({ user_id: userId }).delete();
    await trx('email_verification_tokens').where({ user_id: userId }).delete();
    // API keys go too: machines lose access with the login, and key names are the user's words.
    await trx('api_keys').where({ user_id: userId }).delete();
    // Events already on the bus (user.registered holds the name and address) leave the outbox's
    // history; those not yet relayed stay, to be published before account.deleted.
    await trx('kit_outbox').where({ key: userId }).whereNotNull('published_at').delete();
    await trx('withheld_signup_grants').insert({ email_hash: grantHash }).onConflict('email_hash').ignore();
    // Emails not yet sent (a receipt, a notice) are dropped; those sent keep their kind and date only.
    await mailer.eraseAddress(trx, user.email);
    await emitEvent(trx, 'account.deleted', userId, { user_id: userId, email_sha256: emailSha256(user.email), deleted_at: new Date(deleted.updated_at).toISOString() });
    await mailer.send(trx, { to: user.email, template: 'account-deleted', data: { name: user.name } });
  });
}

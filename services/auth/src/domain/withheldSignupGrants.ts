import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';
import { normaliseEmail } from './emailAddress.ts';

// Addresses of deleted accounts, kept only as hashes: registration asks whether one may have the
// signup grant again, account deletion records it.

/** The SHA-256 of a normalised address, as `account.deleted` carries it to the services that keep rows by address. */
export const emailSha256 = (email: string) => crypto.createHash('sha256').update(normaliseEmail(email)).digest('hex');

/** The key of the withheld-grant hashes: made once, kept in auth's own database. */
async function erasureKey(db: Db | Knex.Transaction): Promise<string> {
  await db('account_erasure_keys').insert({ id: 1, hmac_key: crypto.randomBytes(32).toString('base64url') }).onConflict('id').ignore();
  return (await db('account_erasure_keys').where({ id: 1 }).first()).hmac_key;
}

export async function withheldGrantHash(db: Db | Knex.Transaction, email: string): Promise<string> {
  return crypto.createHmac('sha256', await erasureKey(db)).update(normaliseEmail(email)).digest('hex');
}

/**
 * Whether this address belonged to a deleted account: it may register again, without a second signup
 * grant. Auth keeps only an HMAC of such addresses (and the plain SHA-256 of those deleted before
 * the HMAC existed), so its database no longer holds the address itself.
 */
export async function signupGrantWithheld(db: Db, email: string): Promise<boolean> {
  const hashes = [await withheldGrantHash(db, email), `sha256:${emailSha256(email)}`];
  return Boolean(await db('withheld_signup_grants').whereIn('email_hash', hashes).first());
}

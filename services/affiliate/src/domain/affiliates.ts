import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { canonicalEmail } from './canonicalEmail.ts';

export interface AffiliateRow {
  user_id: string;
  referral_code: string;
  name: string;
  email: string;
  canonical_email: string;
  /** The PayPal account the affiliate chose for payouts, if they did. */
  paypal_email: string | null;
  created_at: Date;
}

/** No 0/O or 1/I: a code is read aloud and typed by people. 32^8 codes make guessing one pointless. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

export const referralLink = (publicUrl: string, code: string): string => `${publicUrl}/?ref=${encodeURIComponent(code)}`;

/** The user's affiliate row, created with a fresh code the first time (idempotent, race-safe). */
export async function ensureAffiliate(db: Knex | Knex.Transaction, user: { id: string; name: string; email: string }): Promise<AffiliateRow> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing: AffiliateRow | undefined = await db('affiliates').where({ user_id: user.id }).first();
    if (existing) return existing;
    // DO NOTHING on any conflict: a concurrent insert for this user, or (rarely) a code already taken.
    await db('affiliates')
      .insert({ user_id: user.id, referral_code: newReferralCode(), name: user.name, email: user.email, canonical_email: canonicalEmail(user.email) })
      .onConflict().ignore();
  }
  throw new Error(`could not create a referral code for user ${user.id}`);
}

export async function findAffiliateByCode(db: Knex | Knex.Transaction, code: string): Promise<AffiliateRow | undefined> {
  return db('affiliates').where({ referral_code: code.trim().toUpperCase() }).first();
}

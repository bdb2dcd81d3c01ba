import type { Knex } from 'knex';
import type { EventData } from '@leadforge/contracts';
import { ensureAffiliate, findAffiliateByCode } from './affiliates.ts';
import { canonicalEmail } from './canonicalEmail.ts';
import { checkReferralToken } from './referralTokens.ts';
import { lockBuyer } from './buyerLock.ts';
import { settleCommissionsOf } from './commissions.ts';

export type RejectionReason = 'self_referral' | 'same_device' | 'same_signup_address' | 'expired' | 'bad_signature' | 'unknown_code' | 'malformed';

/** Two registrations from one client address this close together are taken for one person's. */
export const SAME_ADDRESS_WINDOW_MS = 24 * 3600_000;

interface SignupRow {
  signup_address: string | null;
  device_id: string | null;
  registered_at: Date | string;
}

/** Why a referral between these two signups is the referrer's own second account, if it is. */
function sameOwner(referrer: SignupRow | undefined, referred: SignupRow): RejectionReason | undefined {
  if (!referrer) return undefined;
  if (referrer.device_id && referrer.device_id === referred.device_id) return 'same_device';
  const apart = Math.abs(new Date(referred.registered_at).getTime() - new Date(referrer.registered_at).getTime());
  if (referrer.signup_address && referrer.signup_address === referred.signup_address && apart <= SAME_ADDRESS_WINDOW_MS) return 'same_signup_address';
  return undefined;
}

export interface ReferralOutcome {
  status: 'attributed' | 'rejected';
  reason?: RejectionReason;
  referrerId?: string;
}

/**
 * user.registered: every user gets a referral code; a registration that carried a referral token
 * is attributed to its referrer when the token is genuine, the visit was at most 60 days before
 * the registration, and the new account is not the referrer's own: not the same mailbox, not
 * registered on the referrer's device, nor from the referrer's signup address within a day.
 * Otherwise the attempt is kept with the reason (the admin panel's referrals show it) and attributes nothing.
 */
export async function recordRegistration(trx: Knex.Transaction, secret: string, data: EventData<'user.registered'>): Promise<ReferralOutcome | undefined> {
  await ensureAffiliate(trx, { id: data.user_id, name: data.name, email: data.email });
  const signup: SignupRow = { signup_address: data.signup_address ?? null, device_id: data.device_id ?? null, registered_at: data.created_at };
  await trx('signups').insert({ user_id: data.user_id, ...signup }).onConflict('user_id').ignore();
  if (!data.referral_code) return undefined;

  const check = checkReferralToken(secret, data.referral_code, new Date(data.created_at));
  const referrer = check.code ? await findAffiliateByCode(trx, check.code) : undefined;
  let outcome: ReferralOutcome;
  if (!check.ok) outcome = { status: 'rejected', reason: check.reason, referrerId: referrer?.user_id };
  else if (!referrer) outcome = { status: 'rejected', reason: 'unknown_code' };
  else if (referrer.user_id === data.user_id || referrer.canonical_email === canonicalEmail(data.email)) {
    outcome = { status: 'rejected', reason: 'self_referral', referrerId: referrer.user_id };
  } else {
    const shared = sameOwner(await trx('signups').where({ user_id: referrer.user_id }).first(), signup);
    outcome = shared ? { status: 'rejected', reason: shared, referrerId: referrer.user_id } : { status: 'attributed', referrerId: referrer.user_id };
  }

  await lockBuyer(trx, data.user_id);
  const inserted = await trx('referrals').insert({
    referred_user_id: data.user_id,
    referrer_id: outcome.referrerId ?? null,
    referral_code: (check.code ?? data.referral_code).slice(0, 64),
    status: outcome.status,
    rejection_reason: outcome.reason ?? null,
    visited_at: check.visitedAt ?? null,
    registered_at: data.created_at,
  }).onConflict('referred_user_id').ignore().returning('referred_user_id');
  if (inserted.length && outcome.status === 'attributed') await settleCommissionsOf(trx, data.user_id);
  return outcome;
}

import type { Db } from '@leadforge/kit/db';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const dollars = (cents: number | string) => Number(cents) / 100;

/**
 * What affiliate holds about one user, for their data export: their referral code, how they were
 * referred, the referrals and commissions they earned (without the referred users' ids), payouts,
 * and affiliate applications (signed in, or from their address).
 */
export async function accountData(db: Db, userId: string, email: string) {
  const [affiliate, referredBy, referrals, commissions, payouts, applications] = await Promise.all([
    db('affiliates').where({ user_id: userId }).first(),
    db('referrals').where({ referred_user_id: userId }).first(),
    db('referrals').where({ referrer_id: userId }).orderBy('registered_at').select('status', 'visited_at', 'registered_at'),
    db('commissions').where({ referrer_id: userId }).orderBy('earned_at'),
    db('payout_items').join('payout_batches', 'payout_batches.id', 'payout_items.batch_id').where({ referrer_id: userId })
      .orderBy('payout_batches.period').select('payout_batches.period', 'payout_batches.status', 'payout_items.receiver', 'payout_items.amount_cents'),
    db('affiliate_applications').where({ user_id: userId }).orWhereRaw('user_id IS NULL AND lower(trim(email)) = ?', [email.trim().toLowerCase()]).orderBy('created_at'),
  ]);
  return {
    referral_code: affiliate?.referral_code ?? null,
    affiliate_since: iso(affiliate?.created_at ?? null),
    payout_paypal_email: affiliate?.paypal_email ?? null,
    referred_by: referredBy ? { referral_code: referredBy.referral_code, status: referredBy.status, registered_at: iso(referredBy.registered_at) } : null,
    referrals: referrals.map((r) => ({ status: r.status, visited_at: iso(r.visited_at), registered_at: iso(r.registered_at) })),
    commissions: commissions.map((c) => ({
      id: c.id, amount: dollars(c.amount_cents), paid: dollars(c.paid_cents), status: c.status, earned_at: iso(c.earned_at), paid_at: iso(c.paid_at), reversed_at: iso(c.reversed_at),
    })),
    payouts: payouts.map((p) => ({ period: p.period, status: p.status, paypal_email: p.receiver, amount: dollars(p.amount_cents) })),
    applications: applications.map((a) => ({ name: a.name, email: a.email, website: a.website, message: a.message, created_at: iso(a.created_at) })),
  };
}

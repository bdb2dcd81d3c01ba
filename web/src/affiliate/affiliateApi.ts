import type { AffiliateStatsResponse, CommissionsResponse, ReferralVisitResponse } from '@leadforge/contracts';
import { api } from '../api/client';
import { referralCookie } from './referralCookie';

export type AffiliateStats = AffiliateStatsResponse;
export type CommissionStatement = CommissionsResponse;

export interface ApplicationForm {
  name: string;
  email: string;
  website: string;
  message: string;
}

export const affiliateKeys = {
  stats: ['affiliate', 'stats'] as const,
  commissions: (page: number, pageSize: number) => ['affiliate', 'commissions', { page, pageSize }] as const,
};

export async function fetchAffiliateStats(): Promise<AffiliateStats> {
  const { data } = await api.get<AffiliateStats>('/api/affiliate/stats');
  return data;
}

export async function fetchCommissions(page: number, pageSize: number): Promise<CommissionStatement> {
  const { data } = await api.get<CommissionStatement>('/api/affiliate/commissions', { params: { page, page_size: pageSize } });
  return data;
}

/** Sends the application; the optional fields only when filled in. Resolves to the server's message. */
export async function applyForProgramme(form: ApplicationForm): Promise<string> {
  const { data } = await api.post<{ message: string }>('/api/affiliate/apply', {
    name: form.name.trim(),
    email: form.email.trim(),
    ...(form.website.trim() ? { website: form.website.trim() } : {}),
    ...(form.message.trim() ? { message: form.message.trim() } : {}),
  });
  return data.message;
}

/** A visitor followed a referral link: keep the signed token the register call will send. */
export async function rememberReferral(code: string): Promise<void> {
  const { data } = await api.post<ReferralVisitResponse>('/api/affiliate/referral-visits', { code });
  document.cookie = referralCookie(data.referral_token, data.max_age_seconds, window.location.protocol === 'https:');
}

/** Sets the PayPal address commissions are paid to; resolves to where payouts now go. */
export async function savePayoutEmail(paypalEmail: string): Promise<Pick<AffiliateStats, 'payout_email' | 'payout_email_source'>> {
  const { data } = await api.put<Pick<AffiliateStats, 'payout_email' | 'payout_email_source'>>('/api/affiliate/payout-email', { paypal_email: paypalEmail.trim() });
  return data;
}

import { useEffect } from 'react';
import { rememberReferral } from './affiliateApi';
import { referralParam } from './referralCookie';

/**
 * Mounted once for the whole app: a visitor landing on any page with `?ref=CODE` gets the signed
 * referral token in the lf_ref cookie, which registration sends within the next 60 days.
 */
export function ReferralCapture() {
  useEffect(() => {
    const code = referralParam(window.location.search);
    if (!code) return;
    rememberReferral(code).catch((err) => console.error('Failed to record the referral visit:', err));
  }, []);
  return null;
}

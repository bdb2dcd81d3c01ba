const REFERRAL_COOKIE = 'lf_ref';

/** The affiliate referral code remembered in the first-party `lf_ref` cookie, if any. */
export function readReferralCode(cookieHeader: string): string | undefined {
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== REFERRAL_COOKIE) continue;
    const raw = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

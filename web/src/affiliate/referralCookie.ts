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

/**
 * The `lf_ref` cookie holding a signed referral token for `maxAgeSeconds` (60 days): the browser
 * forgets it after that, and the server checks the visit time signed into the token as well.
 */
export function referralCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${REFERRAL_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The `?ref=CODE` of a landing URL, when it looks like a referral code. */
export function referralParam(search: string): string | undefined {
  const code = new URLSearchParams(search).get('ref')?.trim();
  return code && /^[A-Za-z0-9]{4,32}$/.test(code) ? code : undefined;
}

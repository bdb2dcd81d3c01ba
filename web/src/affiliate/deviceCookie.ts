const DEVICE_COOKIE = 'lf_device';
const TWO_YEARS_SECONDS = 2 * 365 * 24 * 3600;

/**
 * This browser's random, long-lived `lf_device` id, made on first use. Sent with a registration, it
 * lets the affiliate programme refuse a referral between two accounts of one device.
 */
export function deviceId(doc: Pick<Document, 'cookie'> = document, secure = window.location.protocol === 'https:'): string {
  const kept = /(?:^|;\s*)lf_device=([A-Za-z0-9_-]{8,64})(?:;|$)/.exec(doc.cookie)?.[1];
  if (kept) return kept;
  const made = crypto.randomUUID().replace(/-/g, '');
  doc.cookie = `${DEVICE_COOKIE}=${made}; Max-Age=${TWO_YEARS_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
  return made;
}

import crypto from 'node:crypto';
import { REFERRAL_WINDOW_DAYS } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';

const DAY_MS = 24 * 3600 * 1000;
/** Clocks of two replicas may differ a little; a visit "after" the registration by less is fine. */
const CLOCK_SKEW_MS = 10 * 60 * 1000;
const SIGNATURE_CHARS = 22;
export const REFERRAL_WINDOW_MS = REFERRAL_WINDOW_DAYS * DAY_MS;

export type TokenRejection = 'malformed' | 'bad_signature' | 'expired';
export type TokenCheck =
  | { ok: true; code: string; visitedAt: Date }
  | { ok: false; reason: TokenRejection; code?: string; visitedAt?: Date };

function signature(secret: string, payload: string): string {
  return crypto.createHmac('sha256', secret).update(payload).digest('base64url').slice(0, SIGNATURE_CHARS);
}

/**
 * `CODE.<visit time in base-36 seconds>.<HMAC>`: what the SPA keeps in its lf_ref cookie and sends
 * as `referral_code` at registration. The signature lets the server trust the visit time, so the
 * 60-day window holds even if a browser keeps the cookie longer or a client forges one.
 */
export function signReferralToken(secret: string, code: string, visitedAt: Date): string {
  const payload = `${code}.${Math.floor(visitedAt.getTime() / 1000).toString(36)}`;
  return `${payload}.${signature(secret, payload)}`;
}

/** Whether a registration at `registeredAt` that carried `token` is within the window of a real visit. */
export function checkReferralToken(secret: string, token: string, registeredAt: Date): TokenCheck {
  const match = /^([A-Z0-9]{4,32})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]+)$/.exec(token.trim());
  if (!match) return { ok: false, reason: 'malformed' };
  const [, code, time, given] = match;
  const expected = signature(secret, `${code}.${time}`);
  if (given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
    return { ok: false, reason: 'bad_signature', code };
  }
  const visitedAt = new Date(parseInt(time, 36) * 1000);
  const age = registeredAt.getTime() - visitedAt.getTime();
  if (age > REFERRAL_WINDOW_MS || age < -CLOCK_SKEW_MS) return { ok: false, reason: 'expired', code, visitedAt };
  return { ok: true, code, visitedAt };
}

/** The signing secret: AFFILIATE_REFERRAL_SECRET, else one generated once and kept in this service's database. */
export async function loadReferralSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db('affiliate_settings')
    .insert({ key: 'referral_secret', value: crypto.randomBytes(32).toString('base64url') })
    .onConflict('key').ignore();
  const row = await db('affiliate_settings').where({ key: 'referral_secret' }).first();
  return row.value as string;
}

import crypto from 'node:crypto';

/** A new endpoint's signing secret: 32 random bytes, prefixed so a leaked one is recognisable. */
export const newWebhookSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64url')}`;

/**
 * The `Leadforge-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * The timestamp is signed with the body so a receiver can refuse an old delivery replayed at it.
 */
export function webhookSignature(secret: string, body: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

import crypto from 'node:crypto';

/** Who paid, as a payment provider reports it (PayPal: the payer's account id and email). */
export interface Payer {
  id?: string;
  email?: string;
}

const key = (kind: string, value: string) => crypto.createHash('sha256').update(`${kind}:${value}`).digest('hex');

/** A payer's email as the key compares it: the same mailbox however it was typed. */
export const payerEmailKey = (email: string) => key('email', email.trim().toLowerCase());

/**
 * What a `purchase.completed` event carries about its payer: hashes, not the account id or email,
 * so a consumer can tell two purchases (or a purchase and an account's email) share a payer without
 * holding anyone's payment details.
 */
export function payerKeys(payer: Payer | undefined): string[] {
  const keys: string[] = [];
  if (payer?.id?.trim()) keys.push(key('paypal-payer', payer.id.trim()));
  if (payer?.email?.trim()) keys.push(payerEmailKey(payer.email));
  return keys;
}

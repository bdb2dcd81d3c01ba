import { createEmailVerifier, type EmailVerifier } from '../verdicts/emailVerdict.ts';
import type { Lead } from './leadOfPlace.ts';

// Without a verifier, only what needs no network is judged: the syntax and the type.
const offlineVerifier = createEmailVerifier({});

/** The lead with its email's verdict (deliverability, type, when, and the evidence); a lead without an email is unchanged. */
export async function withEmailVerdict(lead: Lead | undefined, verify: EmailVerifier = offlineVerifier): Promise<Lead | undefined> {
  if (!lead?.email) return lead;
  const verdict = await verify(lead.email);
  return {
    ...lead,
    email_deliverability: verdict.deliverability,
    email_type: verdict.type,
    email_checked_at: verdict.checked_at,
    ...(verdict.mx_host ? { email_mx_host: verdict.mx_host } : {}),
    ...(verdict.smtp_code !== undefined ? { email_smtp_code: verdict.smtp_code } : {}),
  };
}

import { judgeEmail, type MailDomainLookup } from '../verdicts/emailVerdict.ts';
import type { Lead } from './leadOfPlace.ts';

/** The lead with its email's verdict (status and type); a lead without an email is unchanged. */
export async function withEmailVerdict(lead: Lead | undefined, lookup: MailDomainLookup | undefined): Promise<Lead | undefined> {
  if (!lead?.email) return lead;
  const verdict = await judgeEmail(lead.email, lookup);
  return { ...lead, email_status: verdict.status, email_type: verdict.type };
}

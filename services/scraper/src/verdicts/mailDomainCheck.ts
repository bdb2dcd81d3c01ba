import { emailDomain } from '../extract/emailAddress.ts';

/** Whether a domain can receive mail (has an MX, or an address record to fall back on). */
export type MailDomainCheck = (domain: string) => Promise<boolean>;

/** The emails whose domain passes the check, in the same order; each domain is checked once. */
export async function keepDeliverableEmails(emails: string[], canReceiveMail: MailDomainCheck): Promise<string[]> {
  const domains = [...new Set(emails.map(emailDomain))];
  const verdicts = new Map(await Promise.all(domains.map(async (domain) => [domain, await canReceiveMail(domain)] as const)));
  return emails.filter((email) => verdicts.get(emailDomain(email)));
}

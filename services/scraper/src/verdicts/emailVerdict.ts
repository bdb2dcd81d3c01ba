import { emailDomain, normaliseEmail } from '../extract/emailAddress.ts';
import { isDisposableDomain, isFreeMailDomain, isRoleMailbox } from './mailDomainLists.ts';

/**
 * `valid`: well-formed, the domain takes mail (MX, or an address record), not disposable.
 * `risky`: takes mail but is a role mailbox (info@, office@), a free-mail provider's, or its domain
 *   accepts every recipient (a catch-all, so the mailbox itself is unconfirmed).
 * `invalid`: malformed, disposable, or the domain takes no mail.
 * `unknown`: the MX check is off or the resolver could not tell.
 */
export type EmailStatus = 'valid' | 'risky' | 'invalid' | 'unknown';
export type EmailType = 'personal' | 'role';
/** `accepts_all`: takes mail, and its mail server accepted a recipient that cannot exist (catch-all). */
export type MailDomainStatus = 'accepts' | 'accepts_all' | 'refuses' | 'unknown';
/** Whether a domain takes mail, from its DNS records. */
export type MailDomainLookup = (domain: string) => Promise<MailDomainStatus>;

export interface EmailVerdict {
  status: EmailStatus;
  type: EmailType;
}

/** The verdict on one address; without a lookup (EMAIL_MX_CHECK=false) a well-formed one stays `unknown`. */
export async function judgeEmail(email: string, lookup: MailDomainLookup | undefined): Promise<EmailVerdict> {
  const address = normaliseEmail(email);
  const type = isRoleMailbox(email.slice(0, Math.max(0, email.lastIndexOf('@')))) ? 'role' : 'personal';
  if (!address) return { status: 'invalid', type };
  const domain = emailDomain(address);
  if (isDisposableDomain(domain)) return { status: 'invalid', type };
  const mail = lookup ? await lookup(domain) : 'unknown';
  if (mail === 'refuses') return { status: 'invalid', type };
  if (mail === 'unknown') return { status: 'unknown', type };
  return { status: type === 'role' || isFreeMailDomain(domain) || mail === 'accepts_all' ? 'risky' : 'valid', type };
}

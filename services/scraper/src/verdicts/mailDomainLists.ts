import { createRequire } from 'node:module';

// Maintained lists from npm, not tables of our own: disposable-email-domains (the community list
// of throw-away mail services, with wildcard entries), email-providers (free webmail providers)
// and role-based-email-addresses (mailbox names of a function, not of a person).
const require = createRequire(import.meta.url);
const DISPOSABLE = new Set<string>(require('disposable-email-domains') as string[]);
const DISPOSABLE_WILDCARDS = new Set<string>(require('disposable-email-domains/wildcard.json') as string[]);
const FREE_MAIL = new Set<string>(require('email-providers/all.json') as string[]);
const ROLE_MAILBOXES = new Set<string>((require('role-based-email-addresses') as string[]).map((name) => name.toLowerCase()));

/** The domain and each parent domain above it: "a.b.example.de" -> a.b.example.de, b.example.de, example.de, de. */
function selfAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.map((_, i) => labels.slice(i).join('.'));
}

export function isDisposableDomain(domain: string): boolean {
  return DISPOSABLE.has(domain) || selfAndParents(domain).some((name) => DISPOSABLE_WILDCARDS.has(name));
}

export const isFreeMailDomain = (domain: string): boolean => FREE_MAIL.has(domain);

/** A mailbox of a function ("info", "office", "kontakt", "sales.berlin"), not of one person. */
export function isRoleMailbox(localPart: string): boolean {
  const mailbox = localPart.toLowerCase().split('+')[0];
  return ROLE_MAILBOXES.has(mailbox) || ROLE_MAILBOXES.has(mailbox.split(/[._-]/)[0]);
}

import { emailDomain, normaliseEmail } from '../extract/emailAddress.ts';
import type { MailHostsLookup } from './dnsMailDomainCheck.ts';
import type { MailboxProbe } from './mailboxProbe.ts';
import { isDisposableDomain, isFreeMailDomain, isRoleMailbox } from './mailDomainLists.ts';

/**
 * Whether mail to the address arrives, as far as the product can know without sending any:
 * `deliverable`: the domain's mail server accepted the address (and refused a random one).
 * `undeliverable`: malformed, the domain takes no mail, or its server refused the mailbox (550 5.1.1).
 * `accept_all`: the server accepts any address at the domain, so this one is unconfirmed.
 * `unknown`: a check is off, or did not get an answer (timeouts, greylisting twice, 4xx, port 25 blocked).
 */
export type EmailDeliverability = 'deliverable' | 'undeliverable' | 'accept_all' | 'unknown';
/** What kind of address it is, apart from whether it works: the strongest of disposable, free_mail, role, personal. */
export type EmailType = 'role' | 'personal' | 'free_mail' | 'disposable';

export interface EmailVerdict {
  deliverability: EmailDeliverability;
  type: EmailType;
  /** When the verdict was reached (ISO 8601); a cached verdict keeps its time. */
  checked_at: string;
  /** The evidence: the mail host asked (or the best one, when none was asked) and the reply code that decided. */
  mx_host?: string;
  smtp_code?: number;
}

export type EmailVerifier = (email: string) => Promise<EmailVerdict>;

/** The address's type from maintained lists: a throw-away service's, a free-mail provider's, a function's mailbox, or a person's. */
export function emailTypeOf(email: string): EmailType {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1).toLowerCase();
  if (isDisposableDomain(domain)) return 'disposable';
  if (isFreeMailDomain(domain)) return 'free_mail';
  return isRoleMailbox(email.slice(0, Math.max(0, at))) ? 'role' : 'personal';
}

export interface EmailVerifierOptions {
  /** The domain's mail hosts; without it (EMAIL_MX_CHECK=false) a well-formed address is `unknown`. */
  mailHosts?: MailHostsLookup;
  /** The SMTP conversation with the best mail host; without it (EMAIL_SMTP_CHECK=false) `unknown`. */
  mailbox?: MailboxProbe;
  /** How long a verdict on an address is reused; `unknown` ones for `unknownTtlMs` only. */
  ttlMs?: number;
  unknownTtlMs?: number;
  maxAddresses?: number;
}

/**
 * The verdict on an address: syntax, then the domain's mail hosts (MX, the domain itself when it
 * has only an address record), then an SMTP conversation with the best host. Each step that is off
 * or gets no answer leaves `unknown`: the product never guesses. The type is judged apart, so a
 * business's `info@` that its server accepts is `deliverable` of type `role`.
 */
export function createEmailVerifier(options: EmailVerifierOptions): EmailVerifier {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const unknownTtlMs = options.unknownTtlMs ?? 10 * 60 * 1000;
  const maxAddresses = options.maxAddresses ?? 50_000;
  const cache = new Map<string, { verdict: Promise<EmailVerdict>; expires: number }>();

  async function verify(email: string): Promise<EmailVerdict> {
    const type = emailTypeOf(email);
    const verdict = (deliverability: EmailDeliverability, evidence: { mx_host?: string; smtp_code?: number } = {}): EmailVerdict =>
      ({ deliverability, type, checked_at: new Date().toISOString(), ...evidence });
    const address = normaliseEmail(email);
    if (!address) return verdict('undeliverable');
    if (!options.mailHosts) return verdict('unknown');
    const domain = emailDomain(address);
    const hosts = await options.mailHosts(domain);
    if (hosts.status === 'refuses') return verdict('undeliverable');
    if (hosts.status === 'unknown') return verdict('unknown');
    const host = hosts.hosts[0];
    if (!options.mailbox) return verdict('unknown', { mx_host: host });
    const answer = await options.mailbox(address, domain, host);
    return verdict(answer.deliverability, { mx_host: host, ...(answer.code !== undefined ? { smtp_code: answer.code } : {}) });
  }

  return (email) => {
    const key = email.trim().toLowerCase();
    const cached = cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.verdict;
    const verdict = verify(key).catch((): EmailVerdict => ({ deliverability: 'unknown', type: emailTypeOf(key), checked_at: new Date().toISOString() }));
    const entry = { verdict, expires: Date.now() + ttlMs };
    cache.delete(key);
    cache.set(key, entry);
    if (cache.size > maxAddresses) cache.delete(cache.keys().next().value!);
    void verdict.then((answer) => { if (answer.deliverability === 'unknown' && cache.get(key) === entry) entry.expires = Date.now() + unknownTtlMs; });
    return verdict;
  };
}

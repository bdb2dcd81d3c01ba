import os from 'node:os';
import type { ScraperConfig } from '../config.ts';
import { createMailDomainLookup, type MailHostsLookup, type MailResolver } from './dnsMailDomainCheck.ts';
import { createEmailVerifier, type EmailVerifier } from './emailVerdict.ts';
import { createMailboxProbe } from './mailboxProbe.ts';

/** The email verifier as configured (EMAIL_MX_*, EMAIL_SMTP_*, EMAIL_*_CACHE_*), with the MX look-up it asks (the crawl's keep-or-drop check shares it). */
export function configuredEmailVerifier(config: ScraperConfig, resolver: MailResolver): { verify: EmailVerifier; mailHosts?: MailHostsLookup } {
  const mailHosts = config.emailMxCheck ? createMailDomainLookup(resolver, { timeoutMs: config.emailMxTimeoutMs }) : undefined;
  const smtp = config.emailSmtp;
  const mailbox = mailHosts && smtp.enabled
    ? createMailboxProbe({
      lookup: async (host) => (await resolver.resolve4(host)).map((address) => ({ address, family: 4 as const })),
      allowPrivateNetworks: config.allowPrivateNetworks,
      port: smtp.port,
      timeoutMs: smtp.timeoutMs,
      heloName: smtp.heloName ?? os.hostname(),
      sender: smtp.sender,
      acceptAllCheck: smtp.acceptAllCheck,
      acceptAllTtlMs: smtp.acceptAllTtlMs,
      greylistRetryMs: smtp.greylistRetryMs,
      pacing: smtp.pacing,
    })
    : undefined;
  return { verify: createEmailVerifier({ mailHosts, mailbox, ttlMs: smtp.verdictTtlMs, unknownTtlMs: smtp.unknownTtlMs }), mailHosts };
}

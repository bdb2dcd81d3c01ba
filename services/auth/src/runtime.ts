import type { ServiceContext } from '@leadforge/kit/service';
import type { AccessClaims } from '@leadforge/contracts';
import type { AuthConfig } from './config.ts';
import { creditBalances, type CreditBalances } from './domain/balances.ts';
import { loadSigningKey, tokenSigner, type SigningKey } from './domain/signingKeys.ts';
import { parseAdminEmails, promoteAdmins } from './domain/users.ts';
import { startMailSender, type MailSender } from './mail/mailOutbox.ts';
import { mailTransportFrom, type MailTransport } from './mail/mailTransport.ts';

/** What auth's routes and consumers share, built once per start. */
export interface AuthRuntime {
  ctx: ServiceContext;
  key: SigningKey;
  sign: (claims: AccessClaims) => string;
  tokenTtlSeconds: number;
  adminEmails: Set<string>;
  balances: CreditBalances;
  limits: AuthConfig['limits'];
  mail: { transport: MailTransport; retryBaseMs: number; wake: () => void };
}

export async function buildRuntime(ctx: ServiceContext, config: AuthConfig): Promise<AuthRuntime> {
  const key = await loadSigningKey(ctx.db, config.jwtPrivateKey);
  return {
    ctx,
    key,
    sign: tokenSigner(key, config.tokenTtlSeconds),
    tokenTtlSeconds: config.tokenTtlSeconds,
    adminEmails: parseAdminEmails(config.adminEmails),
    balances: creditBalances(ctx.db, ctx.internal, Boolean(ctx.config.serviceUrls.billing), ctx.log),
    limits: config.limits,
    // The sender starts with the service; until then a wake-up has nothing to do.
    mail: { transport: mailTransportFrom(config, ctx.config, ctx.log), retryBaseMs: config.mailRetryBaseMs, wake: () => undefined },
  };
}

/** ADMIN_EMAILS' accounts whose address is verified become admins at each start. */
export async function promoteConfiguredAdmins({ ctx, adminEmails }: AuthRuntime): Promise<void> {
  const promoted = await promoteAdmins(ctx.db, adminEmails, { verifiedOnly: true });
  if (promoted.length) ctx.log.info({ promoted }, 'promoted ADMIN_EMAILS accounts to admin');
}

/** Starts sending the queued emails; routes and consumers wake it once they queue one. */
export function startMailSending(rt: AuthRuntime): MailSender {
  const { ctx, mail } = rt;
  const sender = startMailSender({ db: ctx.db, transport: mail.transport, log: ctx.log, retryBaseMs: mail.retryBaseMs });
  mail.wake = sender.wake;
  if (mail.transport.delivers) ctx.log.info({ mail: mail.transport.describe }, 'account emails are sent through SMTP');
  else ctx.log.warn({ mail: mail.transport.describe }, 'no SMTP_URL: account emails are written as .eml files, not sent');
  return sender;
}

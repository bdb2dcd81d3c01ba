import type { ServiceContext } from '@leadforge/kit/service';
import type { AccessClaims } from '@leadforge/contracts';
import type { AuthConfig } from './config.ts';
import { creditBalances, type CreditBalances } from './domain/balances.ts';
import { loadSigningKey, tokenSigner, type SigningKey } from './domain/signingKeys.ts';
import { parseAdminEmails, promoteAdmins } from './domain/users.ts';
import { Mailer } from '@leadforge/kit/mail';
import { ACCOUNT_MAILS, type AccountMailer } from './mail/accountMails.ts';

/** What auth's routes and consumers share, built once per start. */
export interface AuthRuntime {
  ctx: ServiceContext;
  key: SigningKey;
  sign: (claims: AccessClaims) => string;
  tokenTtlSeconds: number;
  adminEmails: Set<string>;
  balances: CreditBalances;
  limits: AuthConfig['limits'];
  /** Auth's own emails: the account's (reset, password changed, deleted). */
  mail: AccountMailer;
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
    // The sender starts with the service; what is queued before waits for it.
    mail: new Mailer({ db: ctx.db, service: 'auth', config: config.mail, kit: ctx.config, log: ctx.log, templates: ACCOUNT_MAILS, eraseRecipientOnceSent: ['account-deleted'] }),
  };
}

/** ADMIN_EMAILS' accounts whose address is verified become admins at each start. */
export async function promoteConfiguredAdmins({ ctx, adminEmails }: AuthRuntime): Promise<void> {
  const promoted = await promoteAdmins(ctx.db, adminEmails, { verifiedOnly: true });
  if (promoted.length) ctx.log.info({ promoted }, 'promoted ADMIN_EMAILS accounts to admin');
}

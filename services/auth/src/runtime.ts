import type { ServiceContext } from '@leadforge/kit/service';
import { readInt, readVar } from '@leadforge/kit/config';
import type { AccessClaims } from '@leadforge/contracts';
import { creditBalances, type CreditBalances } from './domain/balances.ts';
import { loadSigningKey, tokenSigner, type SigningKey } from './domain/signingKeys.ts';
import { parseAdminEmails } from './domain/users.ts';
import { mailTransportFrom, type MailTransport } from './mail/mailTransport.ts';

/** What auth's routes and consumers share, built once per start. */
export interface AuthRuntime {
  ctx: ServiceContext;
  key: SigningKey;
  sign: (claims: AccessClaims) => string;
  tokenTtlSeconds: number;
  adminEmails: Set<string>;
  balances: CreditBalances;
  limits: {
    registerPerIpPerHour: number;
    loginPerIpPerMinute: number;
    loginPerEmailPer15Minutes: number;
    resetPerIpPerHour: number;
    resetPerEmailPerHour: number;
    passwordChangePerUserPer15Minutes: number;
    exportPerUserPer15Minutes: number;
  };
  mail: { transport: MailTransport; retryBaseMs: number; wake: () => void };
}

export async function buildRuntime(ctx: ServiceContext): Promise<AuthRuntime> {
  const env = ctx.env;
  const key = await loadSigningKey(ctx.db, readVar(env, 'JWT_PRIVATE_KEY'));
  const tokenTtlSeconds = readInt(env, 'ACCESS_TOKEN_TTL_SECONDS', 12 * 3600, 60, 30 * 24 * 3600);
  return {
    ctx,
    key,
    sign: tokenSigner(key, tokenTtlSeconds),
    tokenTtlSeconds,
    adminEmails: parseAdminEmails(readVar(env, 'ADMIN_EMAILS')),
    balances: creditBalances(ctx.db, ctx.internal, Boolean(ctx.config.serviceUrls.billing), ctx.log),
    limits: {
      registerPerIpPerHour: readInt(env, 'AUTH_REGISTER_PER_IP_PER_HOUR', 20, 1),
      loginPerIpPerMinute: readInt(env, 'AUTH_LOGIN_PER_IP_PER_MINUTE', 30, 1),
      loginPerEmailPer15Minutes: readInt(env, 'AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES', 10, 1),
      resetPerIpPerHour: readInt(env, 'AUTH_PASSWORD_RESET_PER_IP_PER_HOUR', 20, 1),
      resetPerEmailPerHour: readInt(env, 'AUTH_PASSWORD_RESET_PER_EMAIL_PER_HOUR', 3, 1),
      passwordChangePerUserPer15Minutes: readInt(env, 'AUTH_PASSWORD_CHANGE_PER_USER_PER_15_MINUTES', 10, 1),
      exportPerUserPer15Minutes: readInt(env, 'AUTH_ACCOUNT_EXPORT_PER_USER_PER_15_MINUTES', 5, 1),
    },
    // The sender starts with the service; until then a wake-up has nothing to do.
    mail: { transport: mailTransportFrom(env, ctx.config, ctx.log), retryBaseMs: readInt(env, 'MAIL_RETRY_BASE_SECONDS', 60, 1, 3600) * 1000, wake: () => undefined },
  };
}

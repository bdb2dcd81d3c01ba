import type { ServiceContext } from '@leadforge/kit';
import { readInt, readVar } from '@leadforge/kit';
import type { AccessClaims } from '@leadforge/contracts';
import { creditBalances, type CreditBalances } from './domain/balances.ts';
import { loadSigningKey, tokenSigner, type SigningKey } from './domain/signingKeys.ts';
import { parseAdminEmails } from './domain/users.ts';

/** What auth's routes and consumers share, built once per start. */
export interface AuthRuntime {
  ctx: ServiceContext;
  key: SigningKey;
  sign: (claims: AccessClaims) => string;
  tokenTtlSeconds: number;
  adminEmails: Set<string>;
  balances: CreditBalances;
  limits: { registerPerIpPerHour: number; loginPerIpPerMinute: number; loginPerEmailPer15Minutes: number };
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
    },
  };
}

import { ACCOUNT_DATA_EXPORT_PATH, type AccountDataResponse, type ServiceName } from '@leadforge/contracts';
import type { ServiceContext } from '@leadforge/kit/service';
import { serviceUnavailable } from '@leadforge/kit/http';
import type { AccountMailer } from '../mail/accountMails.ts';
import type { UserRow } from './users.ts';

const isoOrNull = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The services that hold data of a user besides auth, each behind its internal export route. */
const SERVICES_WITH_USER_DATA: readonly ServiceName[] = ['billing', 'leads', 'affiliate', 'contact'];
/** A user with hundreds of searches makes a large answer; the whole export stays bounded. */
const EXPORT_CALL_TIMEOUT_MS = 30_000;

/**
 * Everything the product holds about one user: auth's own rows, then each service's through its
 * internal export route, in parallel. A service that does not answer fails the whole export (503):
 * a file that silently lacks a part would mislead the user about what we keep.
 */
export async function exportAccount(ctx: ServiceContext, mailer: AccountMailer, user: UserRow, credits: number) {
  const emails = await mailer.sentTo(ctx.db, { address: user.email });
  // Never the key hashes: the prefix is what identifies a key to its owner.
  const apiKeys = await ctx.db('api_keys').where({ user_id: user.id }).orderBy('created_at')
    .select('name', 'prefix', 'created_at', 'expires_at', 'last_used_at', 'revoked_at');
  const parts = await Promise.all(SERVICES_WITH_USER_DATA.map(async (service) => {
    try {
      const data = await ctx.internal.call<AccountDataResponse>(service, 'POST', ACCOUNT_DATA_EXPORT_PATH, {
        body: { user_id: user.id, email: user.email },
        timeoutMs: EXPORT_CALL_TIMEOUT_MS,
        // A read (POST only to carry the email).
        idempotent: true,
      });
      return [service, data] as const;
    } catch (err) {
      ctx.log.warn({ err, service }, 'account export: a service did not give its part');
      throw serviceUnavailable(`Your data could not be gathered from every part of Leadforge (${service}); please try again in a minute`, 'export_incomplete');
    }
  }));
  return {
    exported_at: new Date().toISOString(),
    account: {
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      status: user.status,
      created_at: new Date(user.created_at).toISOString(),
      credits,
      notify_search_ready: user.notify_search_ready,
      api_keys: apiKeys.map((k) => ({
        name: k.name,
        prefix: k.prefix,
        created_at: isoOrNull(k.created_at),
        expires_at: isoOrNull(k.expires_at),
        last_used_at: isoOrNull(k.last_used_at),
        revoked_at: isoOrNull(k.revoked_at),
      })),
      emails_sent: emails,
    },
    ...Object.fromEntries(parts),
  };
}

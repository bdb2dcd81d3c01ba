import type { Db } from '@leadforge/kit/db';
import type { InternalClient } from '@leadforge/kit/http';
import type { Logger } from 'pino';

/**
 * The credit balance belongs to billing. Auth asks billing (short timeout) and falls back to the
 * last balance it saw on `billing.credits`, so a slow billing never fails the page.
 */
export function creditBalances(db: Db, internal: InternalClient, billingConfigured: boolean, log: Logger) {
  async function lastSeen(userId: string): Promise<number> {
    const row = await db('last_seen_balances').where({ user_id: userId }).first();
    return row ? Number(row.balance) : 0;
  }

  return {
    async of(userId: string): Promise<number> {
      if (!billingConfigured) return lastSeen(userId);
      try {
        const res = await internal.call<{ balance: number }>('billing', 'GET', `/internal/balances/${userId}`, { timeoutMs: 800, retry: false });
        return res.balance;
      } catch (err) {
        log.warn({ err: (err as Error).message, userId }, 'billing balance unavailable; serving the last seen balance');
        return lastSeen(userId);
      }
    }
  };
}
export type CreditBalances = ReturnType<typeof creditBalances>;

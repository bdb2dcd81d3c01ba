import type { AdminUserDetailResponse, ApiKeyList } from '@leadforge/contracts';
import { ACCOUNT_DATA_EXPORT_PATH } from '@leadforge/contracts';
import type { ServiceContext } from '@leadforge/kit/service';
import { notFound } from '@leadforge/kit/http';
import { iso, num } from './sqlValues.ts';
import { toAdminUser } from './userDirectory.ts';

const NEWEST = 100;

type Detail = AdminUserDetailResponse;

/** The part of billing's account-data answer this view reads. */
interface BillingAccountData {
  credit_ledger?: Array<{ id: string | number; delta: number; balance_after: number; reason: string; note: string | null; created_at: string }>;
}

const why = (error: unknown) => (error as Error)?.message ?? String(error);

/**
 * One user as the Users tab opens them. The read models give the account, its searches and its
 * purchases; the ledger and the API keys are read from their owners (billing, auth) through routes
 * they already serve, so the read models do not copy data only this view needs. An owner that does
 * not answer costs its own section, not the page.
 */
export async function userProfile(ctx: ServiceContext, userId: string): Promise<Detail> {
  const row = await ctx.db('rm_users').where({ user_id: userId }).whereNotNull('created_at').andWhereNot('status', 'deleted')
    .first('user_id', 'name', 'email', 'role', 'status', 'credits', 'created_at');
  if (!row) throw notFound('User not found', 'user_not_found');
  const unavailable: string[] = [];

  const [searches, purchases, ledger, apiKeys] = await Promise.all([
    ctx.db('rm_activity').where({ user_id: userId, type: 'scrape' })
      .orderBy([{ column: 'occurred_at', order: 'desc' }, { column: 'event_id', order: 'desc' }]).limit(NEWEST)
      .select('ref', 'industry', 'location', 'results_count', 'credits', 'occurred_at'),
    ctx.db('rm_purchases').where({ user_id: userId })
      .orderBy([{ column: 'completed_at', order: 'desc' }, { column: 'purchase_id', order: 'desc' }]).limit(NEWEST)
      .select('purchase_id', 'plan_id', 'amount', 'credits', 'completed_at', 'refunded_amount', 'refunded_at', 'test'),
    ctx.internal.call<BillingAccountData>('billing', 'POST', ACCOUNT_DATA_EXPORT_PATH, { body: { user_id: userId, email: row.email }, timeoutMs: 5000, idempotent: true })
      .then((data) => (data.credit_ledger ?? []).slice(-NEWEST).reverse().map((e) => ({ id: e.id, delta: e.delta, balance_after: e.balance_after, reason: e.reason, note: e.note ?? null, created_at: e.created_at })))
      .catch((error) => { unavailable.push(`Credit ledger: ${why(error)}`); return null; }),
    ctx.internal.call<ApiKeyList>('auth', 'GET', `/internal/users/${encodeURIComponent(userId)}/api-keys`, { timeoutMs: 3000 })
      .then((answer) => answer.keys)
      .catch((error) => { unavailable.push(`API keys: ${why(error)}`); return null; }),
  ]);

  return {
    user: toAdminUser(row),
    searches: searches.map((s) => ({ search_id: s.ref ?? null, industry: s.industry ?? null, location: s.location ?? null, results_count: num(s.results_count), credits_used: num(s.credits), completed_at: iso(s.occurred_at) })),
    purchases: purchases.map((p) => ({
      id: p.purchase_id,
      plan_id: p.plan_id,
      amount: num(p.amount),
      credits: num(p.credits),
      completed_at: iso(p.completed_at),
      refunded_amount: num(p.refunded_amount),
      refunded_at: p.refunded_at ? iso(p.refunded_at) : null,
      test: p.test === true,
    })),
    ledger,
    api_keys: apiKeys,
    unavailable,
  };
}

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { countOf } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { adminKeys, fetchUserDetail } from './adminApi';
import { dateTime, dollars, planLabel, whole } from './format';
import { RoleBadge } from './RoleBadge';
import { TestMoneyBadge } from './TestMoneyBadge';

/** A section of the view: a heading, then its list or what to say when it is empty or unavailable. */
function Part({ id, title, count, empty, children }: { id: string; title: string; count: number | null; empty: string; children: ReactNode }) {
  return (
    <section className="card admin-section" aria-labelledby={`admin-user-${id}`} data-testid={`user-detail-${id}`}>
      <h3 id={`admin-user-${id}`}>{title}{count !== null && ` (${whole(count)})`}</h3>
      {count === null ? <p className="muted">Not available right now.</p> : count === 0 ? <p className="muted">{empty}</p> : children}
    </section>
  );
}

/**
 * One user from the Users tab: account, searches, purchases, refunds, credit ledger and API keys.
 * Lists are stacked label/value rows (`admin-records`), which read on a phone as well as on a desk.
 */
export function UserDetailView({ userId, onBack }: { userId: string; onBack(): void }) {
  const detail = useQuery({ queryKey: adminKeys.user(userId), queryFn: () => fetchUserDetail(userId) });
  const data = detail.data;
  const refunds = data?.purchases.filter((p) => p.refunded_amount > 0) ?? [];

  return (
    <div className="admin-tab-body admin-user-detail" aria-busy={detail.isFetching}>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onBack}>← All users</button>
      {detail.isPending ? <p className="muted">Loading user...</p> : !data ? (
        <p className="alert alert-error" role="alert">{errorDetail(detail.error, 'Failed to load this user')}</p>
      ) : (
        <>
          <section className="card admin-section" aria-labelledby="admin-user-heading">
            <h2 id="admin-user-heading" className="admin-break">{data.user.name}</h2>
            <dl className="admin-facts">
              <div><dt>Email</dt><dd className="admin-break">{data.user.email}</dd></div>
              <div><dt>Role</dt><dd><RoleBadge role={data.user.role} /></dd></div>
              <div><dt>Status</dt><dd>{data.user.status === 'inactive' ? 'Inactive' : 'Active'}</dd></div>
              <div><dt>Credits</dt><dd data-testid="user-detail-credits">{whole(data.user.credits)}</dd></div>
              <div><dt>Joined</dt><dd>{dateTime(data.user.created_at)}</dd></div>
            </dl>
          </section>
          {data.unavailable.length > 0 && (
            <div className="alert alert-warning" role="status">{data.unavailable.map((line) => <p key={line}>{line}</p>)}</div>
          )}

          <Part id="searches" title="Searches" count={data.searches.length} empty="No finished searches yet.">
            <ul className="admin-records">
              {data.searches.map((s, i) => (
                <li key={s.search_id ?? i}>
                  <strong className="admin-break">{s.industry && s.location ? `${s.industry} in ${s.location}` : 'Search (from before searches were named here)'}</strong>
                  <span>{countOf(s.results_count, 'lead')}</span>
                  <span>{countOf(s.credits_used, 'credit')}</span>
                  <span className="muted">{dateTime(s.completed_at)}</span>
                </li>
              ))}
            </ul>
          </Part>

          <Part id="purchases" title="Purchases" count={data.purchases.length} empty="No purchases yet.">
            <ul className="admin-records">
              {data.purchases.map((p) => (
                <li key={p.id}>
                  <strong>{planLabel(p.plan_id)}</strong>
                  <span>{dollars(p.amount)}</span>
                  <span>{whole(p.credits)} credits</span>
                  <span className="muted">{dateTime(p.completed_at)}</span>
                  {p.test && <TestMoneyBadge />}
                  {p.refunded_amount > 0 && <span className="admin-badge admin-badge-danger">Refunded</span>}
                </li>
              ))}
            </ul>
          </Part>

          <Part id="refunds" title="Refunds" count={refunds.length} empty="No refunds.">
            <ul className="admin-records">
              {refunds.map((p) => (
                <li key={p.id}>
                  <strong>{planLabel(p.plan_id)}</strong>
                  <span>{dollars(p.refunded_amount)} of {dollars(p.amount)}</span>
                  <span className="muted">{p.refunded_at ? dateTime(p.refunded_at) : ''}</span>
                </li>
              ))}
            </ul>
          </Part>

          <Part id="ledger" title="Credit ledger" count={data.ledger?.length ?? null} empty="No credit changes yet.">
            <ul className="admin-records">
              {data.ledger?.map((e) => (
                <li key={e.id}>
                  <strong className={e.delta < 0 ? 'admin-bad' : 'admin-ok'}>{e.delta > 0 ? '+' : ''}{whole(e.delta)}</strong>
                  <span>{e.reason}{e.note ? ` — ${e.note}` : ''}</span>
                  <span>balance {whole(e.balance_after)}</span>
                  <span className="muted">{dateTime(e.created_at)}</span>
                </li>
              ))}
            </ul>
          </Part>

          <Part id="api-keys" title="API keys" count={data.api_keys?.length ?? null} empty="No API keys.">
            <ul className="admin-records">
              {data.api_keys?.map((k) => (
                <li key={k.id}>
                  <strong className="admin-break">{k.name}</strong>
                  <code>{k.prefix}…</code>
                  <span className="muted">created {dateTime(k.created_at)}</span>
                  <span className="muted">{k.last_used_at ? `last used ${dateTime(k.last_used_at)}` : 'never used'}</span>
                  <span className="muted">{k.expires_at ? `expires ${dateTime(k.expires_at)}` : 'no expiry'}</span>
                </li>
              ))}
            </ul>
          </Part>
        </>
      )}
    </div>
  );
}

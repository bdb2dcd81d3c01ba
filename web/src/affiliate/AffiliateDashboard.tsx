import type { AffiliateStats } from './affiliateApi';
import { CopyLinkButton } from './CopyLinkButton';
import { formatUsd } from './programme';

/** The signed-in user's figures and the link to share. */
export function AffiliateDashboard({ stats }: { stats: AffiliateStats }) {
  return (
    <section className="affiliate-dashboard card" aria-labelledby="affiliate-dashboard-title">
      <h2 id="affiliate-dashboard-title">Your affiliate dashboard</h2>
      <dl className="affiliate-stats">
        <div>
          <dt>Total referrals</dt>
          <dd data-testid="total-referrals">{stats.total_referrals}</dd>
        </div>
        <div>
          <dt>Total commissions</dt>
          <dd data-testid="total-commissions">{formatUsd(stats.total_commissions)}</dd>
        </div>
        <div>
          <dt>Referral code</dt>
          <dd data-testid="referral-code" className="affiliate-code">
            {stats.referral_code}
          </dd>
        </div>
      </dl>
      <div className="referral-link">
        <label htmlFor="referral-link">Your referral link</label>
        <div className="referral-link-row">
          <input id="referral-link" type="text" readOnly value={stats.referral_link} onFocus={(event) => event.target.select()} />
          <CopyLinkButton link={stats.referral_link} />
        </div>
      </div>
    </section>
  );
}

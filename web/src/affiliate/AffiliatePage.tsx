import { useQuery } from '@tanstack/react-query';
import { AffiliateDashboard } from './AffiliateDashboard';
import { AffiliateFaq } from './AffiliateFaq';
import { affiliateKeys, fetchAffiliateStats } from './affiliateApi';
import { ApplicationForm } from './ApplicationForm';
import { CommissionsPanel } from './CommissionsPanel';
import { CommissionTable } from './CommissionTable';
import { PayoutEmailCard } from './PayoutEmailCard';
import { ProgrammeBenefits } from './ProgrammeBenefits';
import './affiliate.css';

export function AffiliatePage() {
  const { data: stats } = useQuery({
    queryKey: affiliateKeys.stats,
    queryFn: () => fetchAffiliateStats().catch((err: unknown) => {
      // The spec: a failure to load the stats goes to the console only; the page still works.
      console.error('Failed to load affiliate stats:', err);
      throw err;
    }),
  });

  return (
    <div className="affiliate-page">
      <header className="page-hero affiliate-hero">
        <div className="container">
          <p className="eyebrow">Affiliate Program</p>
          <h1>Earn 10% on every sale you refer</h1>
          <p className="hero-lead">
            Recommend Leadforge to agencies, sales teams and founders. You get 10% of every credit pack they buy, paid monthly
            through PayPal.
          </p>
          <p className="hero-lead" data-testid="no-application-needed">
            No application needed: every account has its referral link, and it earns from the first sale.
          </p>
        </div>
      </header>
      <div className="container affiliate-body">
        {stats && (
          <>
            <AffiliateDashboard stats={stats} />
            <CommissionsPanel />
            <PayoutEmailCard stats={stats} />
          </>
        )}
        <ProgrammeBenefits />
        <CommissionTable />
        <div className="affiliate-columns">
          <ApplicationForm application={stats?.application} />
          <AffiliateFaq />
        </div>
      </div>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { AffiliateDashboard } from '../affiliate/AffiliateDashboard';
import { AffiliateFaq } from '../affiliate/AffiliateFaq';
import { fetchAffiliateStats, type AffiliateStats } from '../affiliate/affiliateApi';
import { ApplicationForm } from '../affiliate/ApplicationForm';
import { CommissionsPanel } from '../affiliate/CommissionsPanel';
import { CommissionTable } from '../affiliate/CommissionTable';
import { ProgrammeBenefits } from '../affiliate/ProgrammeBenefits';
import '../affiliate/affiliate.css';

export function AffiliatePage() {
  const [stats, setStats] = useState<AffiliateStats | null>(null);

  useEffect(() => {
    let current = true;
    fetchAffiliateStats()
      .then((data) => { if (current) setStats(data); })
      // The spec: a failure to load the stats goes to the console only; the page still works.
      .catch((err) => console.error('Failed to load affiliate stats:', err));
    return () => { current = false; };
  }, []);

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
        </div>
      </header>
      <div className="container affiliate-body">
        {stats && (
          <>
            <AffiliateDashboard stats={stats} />
            <CommissionsPanel />
          </>
        )}
        <ProgrammeBenefits />
        <CommissionTable />
        <div className="affiliate-columns">
          <ApplicationForm />
          <AffiliateFaq />
        </div>
      </div>
    </div>
  );
}

import { ComingSoon } from '../components/ComingSoon';

export function AffiliatePage() {
  return (
    <div className="container page">
      <ComingSoon title="Affiliate Program" description="Earn 10% commission on every sale you refer, with your own referral link and stats." />
    </div>
  );
}

import { Link } from 'react-router-dom';

export function AffiliateBanner() {
  return (
    <section className="section section-compact" aria-labelledby="affiliate-title">
      <div className="container">
        <div className="affiliate-banner">
          <div>
            <h2 id="affiliate-title">Earn 10% on every sale you refer</h2>
            <p>Share your link, we track referrals for 60 days, and commissions are paid monthly via PayPal.</p>
          </div>
          <Link to="/affiliate" className="btn btn-light">
            Join the Affiliate Program
          </Link>
        </div>
      </div>
    </section>
  );
}

import { Link } from 'react-router-dom';
import { PLANS, formatCount, planBonusLabel, pricePerLead } from '../billing/plans';

const POPULAR_PLAN = 'growth';

export function PricingTeaser() {
  return (
    <section className="section" aria-labelledby="pricing-title">
      <div className="container">
        <header className="section-header">
          <p className="eyebrow">Pricing</p>
          <h2 id="pricing-title">Simple, one-time credit packs</h2>
          <p>1 credit = 1 lead. No subscription, and credits never expire.</p>
        </header>
        <div className="pricing-grid">
          {PLANS.map((plan) => {
            const featured = plan.id === POPULAR_PLAN;
            const bonus = planBonusLabel(plan);
            return (
              <article key={plan.id} className={featured ? 'card plan-card featured' : 'card plan-card'}>
                {featured && <p className="plan-ribbon">Most popular</p>}
                <h3>{plan.name}</h3>
                <p className="plan-price">
                  <span className="plan-amount">${plan.price}</span>
                  <span className="muted"> one-time</span>
                </p>
                <p className="plan-credits">{formatCount(plan.credits)} leads</p>
                <ul className="plan-detail">
                  {bonus && <li>{bonus}</li>}
                  <li>{pricePerLead(plan)} per lead</li>
                  <li>Credits never expire</li>
                </ul>
                <Link to="/register" className={featured ? 'btn btn-primary btn-block' : 'btn btn-secondary btn-block'}>
                  Get Started
                </Link>
              </article>
            );
          })}
        </div>
        <p className="pricing-more">
          <Link to="/credits" className="text-link">
            Compare packs and buy credits →
          </Link>
        </p>
      </div>
    </section>
  );
}

import { Icon, type IconName } from '../components/Icon';
import { COMMISSION_HOLD_DAYS, COMMISSION_PERCENT, MINIMUM_PAYOUT_USD, REFERRAL_WINDOW_DAYS } from './programme';

const BENEFITS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'gift', title: `${COMMISSION_PERCENT}% commission`, text: 'Earn on every credit pack your referrals buy, not just the first one.' },
  { icon: 'target', title: `${REFERRAL_WINDOW_DAYS}-day cookie`, text: `Visitors who sign up within ${REFERRAL_WINDOW_DAYS} days of clicking your link count as yours.` },
  { icon: 'download', title: 'Monthly PayPal payouts', text: `Paid on the 1st of each month once your balance reaches $${MINIMUM_PAYOUT_USD}.` },
  { icon: 'zap', title: 'Live tracking', text: `See referrals and commissions as they happen; each sale clears after the ${COMMISSION_HOLD_DAYS}-day refund window.` },
];

export function ProgrammeBenefits() {
  return (
    <section className="affiliate-section" aria-labelledby="benefits-title">
      <h2 id="benefits-title">Why join</h2>
      <div className="benefit-grid">
        {BENEFITS.map((benefit) => (
          <article key={benefit.title} className="card benefit-card">
            <span className="feature-icon">
              <Icon name={benefit.icon} />
            </span>
            <h3>{benefit.title}</h3>
            <p>{benefit.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

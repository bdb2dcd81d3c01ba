import { FaqList } from '../components/FaqList';
import { COMMISSION_HOLD_DAYS, MINIMUM_PAYOUT_USD, REFERRAL_WINDOW_DAYS } from './programme';

const QUESTIONS = [
  {
    q: 'How do I earn a commission?',
    a: 'Share your referral link. When someone who followed it signs up and buys a credit pack, you earn 10% of what they paid, on every pack they buy.',
  },
  {
    q: 'How long does a referral last?',
    a: `Your link is remembered in the visitor's browser for ${REFERRAL_WINDOW_DAYS} days. If they create their account within that time, they are your referral.`,
  },
  {
    q: 'When do I get paid?',
    a: `Commissions become payable after the ${COMMISSION_HOLD_DAYS}-day refund window. Payouts go out through PayPal on the 1st of each month once your payable balance reaches $${MINIMUM_PAYOUT_USD}; smaller balances roll over.`,
  },
  {
    q: 'What happens if a customer asks for a refund?',
    a: 'The commission on a refunded purchase is reversed. If it had already been paid, it is deducted from your next payout.',
  },
  {
    q: 'Can I refer myself?',
    a: 'No. Purchases from your own accounts, or paid with your own PayPal account, do not earn commissions.',
  },
];

export function AffiliateFaq() {
  return (
    <section className="affiliate-section" aria-labelledby="affiliate-faq-title">
      <h2 id="affiliate-faq-title">Frequently asked questions</h2>
      <FaqList entries={QUESTIONS} />
    </section>
  );
}

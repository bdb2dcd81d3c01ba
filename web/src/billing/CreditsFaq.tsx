import { FaqList } from '../components/FaqList';
const QUESTIONS = [
  { q: 'Do credits expire?', a: 'No. Credits never expire, so you can buy a pack now and use it whenever you need leads.' },
  { q: 'How many credits does a lead cost?', a: 'One credit per lead delivered. If a search finds fewer leads than you asked for, the unused credits go back to your balance.' },
  { q: 'Is there a money-back guarantee?', a: 'Yes. Every pack comes with a 7-day money-back guarantee.' },
  {
    q: 'How do refunds work?',
    a: 'Within 7 days of purchase, press "Request a refund" beside the pack under Purchase history. If none of its credits have been used, the money goes back to your PayPal account at once; otherwise an administrator reviews the request and you see the decision there.',
  },
];

export function CreditsFaq() {
  return (
    <section className="billing-section" aria-labelledby="credits-faq-title">
      <h2 id="credits-faq-title">Credits FAQ</h2>
      <FaqList entries={QUESTIONS} />
    </section>
  );
}

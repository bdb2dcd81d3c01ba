import { FaqList } from '../components/FaqList';
import { emailCheckClaim, speedClaim, useLeadStats, type Claim } from './homeClaims';

/** The answers about speed and accuracy say what the product measured (homeClaims), nothing more. */
const questions = (speed: Claim, emails: Claim) => [
  {
    q: 'How fast do I get my leads?',
    a: `Results appear as they are found. ${speed.sentence}`,
  },
  {
    q: 'How accurate is the data?',
    a: `Contacts are collected from live business listings and the businesses' own websites. ${emails.sentence}`,
  },
  {
    q: 'How do credits work?',
    a: 'Each lead costs 1 credit. New accounts get 10 free credits, and packs are one-time purchases. Credits never expire.',
  },
  {
    q: 'Can I export my leads?',
    a: 'Yes. Every result set can be exported to CSV with name, company, email, phone, website and city.',
  },
  {
    q: 'What if I am not satisfied?',
    a: 'Every purchase is covered by a 7-day money-back guarantee. Contact support within 7 days for a full refund.',
  },
];

export function Faq() {
  const measured = useLeadStats();
  return (
    <section className="section section-tinted" aria-labelledby="faq-title">
      <div className="container container-narrow">
        <header className="section-header">
          <p className="eyebrow">FAQ</p>
          <h2 id="faq-title">Frequently asked questions</h2>
        </header>
        <FaqList entries={questions(speedClaim(measured), emailCheckClaim(measured))} />
      </div>
    </section>
  );
}

const TOPICS = [
  { title: 'Account & Billing', text: 'Credits, packs, receipts and refunds within the 7-day money-back guarantee.' },
  { title: 'Lead Generation', text: 'Searches, result quality, credits per lead and CSV exports.' },
  { title: 'API & Integration', text: 'Getting your leads into your CRM, spreadsheets and outreach tools.' },
];

export function QuickHelp() {
  return (
    <section className="card contact-card" aria-labelledby="quick-help-title">
      <h2 id="quick-help-title">Quick help</h2>
      <ul className="quick-help">
        {TOPICS.map((topic) => (
          <li key={topic.title}>
            <strong>{topic.title}</strong>
            <span>{topic.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

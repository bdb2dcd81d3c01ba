import { Icon, type IconName } from '../components/Icon';

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'mapPin',
    title: 'Maps scraping',
    text: 'Search business listings by industry and location to find every company that matches your market.',
  },
  {
    icon: 'mail',
    title: 'Email extraction',
    text: 'We crawl each business website and its contact page to surface real, working email addresses.',
  },
  {
    icon: 'phone',
    title: 'Phone numbers',
    text: 'Get direct business phone numbers, normalised and ready for your dialer or outreach team.',
  },
  {
    icon: 'download',
    title: 'CSV export',
    text: 'Download your leads as a clean CSV and import them into any CRM, spreadsheet or email tool.',
  },
  {
    icon: 'zap',
    title: 'Real-time results',
    text: 'Watch leads arrive as they are found. Most searches finish in 30-60 seconds.',
  },
  {
    icon: 'shield',
    title: 'Anti-detection',
    text: 'Rotating proxies and polite, rate-limited crawling keep your searches running reliably.',
  },
];

export function Features() {
  return (
    <section className="section" aria-labelledby="features-title">
      <div className="container">
        <header className="section-header">
          <p className="eyebrow">Features</p>
          <h2 id="features-title">Everything you need to fill your pipeline</h2>
          <p>One search gives you company names, contacts and websites with 95%+ accuracy.</p>
        </header>
        <div className="feature-grid">
          {FEATURES.map((feature) => (
            <article key={feature.title} className="card feature-card">
              <span className="feature-icon">
                <Icon name={feature.icon} />
              </span>
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}

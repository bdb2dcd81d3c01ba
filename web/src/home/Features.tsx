import { Icon, type IconName } from '../components/Icon';
import { speedClaim, useLeadStats, useProxyConfigured } from './homeClaims';

type Feature = { icon: IconName; title: string; text: string };

/** The features; the speed and the crawling are said as measured and as configured. */
const features = (speed: string, proxy: boolean): Feature[] => [
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
    text: 'Download your leads as a clean CSV (or Excel, or JSON) and import them into any CRM, spreadsheet or email tool.',
  },
  {
    icon: 'zap',
    title: 'Real-time results',
    text: `Watch leads arrive as they are found. ${speed}`,
  },
  {
    icon: 'shield',
    title: 'Polite crawling',
    text: proxy
      ? 'Page fetches through a proxy and polite, rate-limited crawling keep your searches running reliably.'
      : 'Polite, rate-limited crawling that respects each site keeps your searches running reliably.',
  },
];

export function Features() {
  const measured = useLeadStats();
  const proxy = useProxyConfigured();
  return (
    <section className="section" aria-labelledby="features-title">
      <div className="container">
        <header className="section-header">
          <p className="eyebrow">Features</p>
          <h2 id="features-title">Everything you need to fill your pipeline</h2>
          <p>One search gives you company names, contacts and websites, each email with its verdict.</p>
        </header>
        <div className="feature-grid">
          {features(speedClaim(measured).sentence, proxy).map((feature) => (
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

const STATS = [
  { value: '30-60s', label: 'from search to results' },
  { value: '95%+', label: 'contact data accuracy' },
  { value: '7-day', label: 'money-back guarantee' },
  { value: 'CSV', label: 'export for any CRM' },
];

export function TrustStats() {
  return (
    <section className="trust-stats" aria-label="Leadforge at a glance">
      <dl className="container trust-stats-grid">
        {STATS.map((stat) => (
          <div key={stat.label}>
            <dt>{stat.label}</dt>
            <dd>{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

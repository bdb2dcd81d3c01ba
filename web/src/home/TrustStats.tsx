import { emailCheckClaim, LEAD_STATS_PATH, speedClaim, useLeadStats } from './homeClaims';

/** Figures measured from the product's own searches (GET /api/lead-stats), or plain words where there are none yet. */
export function TrustStats() {
  const measured = useLeadStats();
  const speed = speedClaim(measured);
  const emails = emailCheckClaim(measured);
  const stats = [
    { value: speed.value, label: speed.label },
    { value: emails.value, label: emails.label },
    { value: '7-day', label: 'money-back guarantee' },
    { value: 'CSV', label: 'Excel and JSON export for any CRM' },
  ];
  return (
    <section className="trust-stats" aria-label="Leadforge at a glance" data-testid="trust-stats">
      <dl className="container trust-stats-grid">
        {stats.map((stat) => (
          <div key={stat.label}>
            <dt>{stat.label}</dt>
            <dd>{stat.value}</dd>
          </div>
        ))}
      </dl>
      <p className="container trust-stats-source">
        {measured?.searches_completed
          ? <>Measured from the product&apos;s own searches of the last {measured.period_days} days: <a href={LEAD_STATS_PATH}>see the figures</a>.</>
          : <>No figures yet: they are measured from real searches once there are some (<a href={LEAD_STATS_PATH}>the figures</a>).</>}
      </p>
    </section>
  );
}

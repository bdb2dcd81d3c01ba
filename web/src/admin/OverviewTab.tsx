import type { AdminStats, DailyFigures } from '@leadforge/contracts';
import { DailyChart, DailyTable, type ChartTone } from '../components/DailyChart';
import { RoleBadge } from './RoleBadge';
import { StatCard } from './StatCard';
import { TestMoneyBadge } from './TestMoneyBadge';
import { date, dollars, planLabel, whole } from './format';

/** The overview's charts, and the columns of the table that stands for them. */
const DAILY_SERIES: { label: string; value(day: DailyFigures): number; format(n: number): string; tone: ChartTone }[] = [
  { label: 'Signups', value: (d) => d.signups, format: whole, tone: 'primary' },
  { label: 'Revenue', value: (d) => d.revenue, format: dollars, tone: 'success' },
  { label: 'Searches', value: (d) => d.searches, format: whole, tone: 'primary' },
  { label: 'Leads generated', value: (d) => d.leads, format: whole, tone: 'accent' },
  { label: 'Credits used', value: (d) => d.credits_used, format: whole, tone: 'accent' },
];

export function OverviewTab({ stats }: { stats: AdminStats }) {
  return (
    <div className="admin-tab-body">
      <div className="admin-stat-grid">
        <StatCard testId="stat-users" label="Total Users" value={whole(stats.users.total)} detail={`${whole(stats.users.admins)} admin${stats.users.admins === 1 ? '' : 's'}`} />
        <StatCard testId="stat-revenue" label="Total Revenue" value={dollars(stats.revenue.total)} detail={`${whole(stats.revenue.purchases)} purchase${stats.revenue.purchases === 1 ? '' : 's'}`} />
        {stats.test_checkout.purchases > 0 && (
          <StatCard testId="stat-test-money" label="Test checkout (not revenue)" value={dollars(stats.test_checkout.total)} detail={`${whole(stats.test_checkout.purchases)} test purchase${stats.test_checkout.purchases === 1 ? '' : 's'}, no money moved`} />
        )}
        <StatCard testId="stat-leads" label="Total Leads" value={whole(stats.usage.total_leads_generated)} detail={`${whole(stats.usage.total_scrapes)} scrape${stats.usage.total_scrapes === 1 ? '' : 's'}`} />
        <StatCard testId="stat-credits" label="Credits in System" value={whole(stats.credits.total_in_system)} detail="across all users" />
      </div>

      <section className="card admin-section" aria-labelledby="admin-trends">
        <h2 id="admin-trends">Last 30 days</h2>
        <div className="daily-chart-grid" data-testid="admin-charts">
          {DAILY_SERIES.map((series) => <DailyChart key={series.label} title={series.label} days={stats.daily} value={series.value} format={series.format} tone={series.tone} />)}
        </div>
        <DailyTable caption="The last 30 days" days={stats.daily} columns={DAILY_SERIES} testId="admin-daily-table" />
      </section>

      <div className="admin-two-columns">
        <section className="card admin-section" aria-labelledby="admin-recent-users">
          <h2 id="admin-recent-users">Recent Users</h2>
          {stats.recent_users.length === 0 ? <p className="muted">No users yet</p> : (
            <ul className="admin-list" data-testid="recent-users">
              {stats.recent_users.map((u) => (
                <li key={u.id}>
                  <div>
                    <strong>{u.name}</strong>
                    <span className="muted">{u.email}</span>
                  </div>
                  <div className="admin-list-end">
                    <RoleBadge role={u.role} />
                    <span>{whole(u.credits)} credits</span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card admin-section" aria-labelledby="admin-recent-purchases">
          <h2 id="admin-recent-purchases">Recent Purchases</h2>
          {stats.recent_purchases.length === 0 ? <p className="muted">No purchases yet</p> : (
            <ul className="admin-list" data-testid="recent-purchases">
              {stats.recent_purchases.map((p) => (
                <li key={p.id}>
                  <div>
                    <strong>{planLabel(p.plan_id)}</strong>
                    <span className="muted">{date(p.completed_at)}{p.user_name ? ` · ${p.user_name}` : ''}</span>
                  </div>
                  <div className="admin-list-end">
                    <strong>{dollars(p.amount)}</strong>
                    <span>{whole(p.credits)} credits</span>
                    {p.test && <TestMoneyBadge />}
                    {p.refunded_amount > 0 && <span className="admin-badge admin-badge-warning">refunded</span>}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

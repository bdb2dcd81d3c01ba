import type { CreditActivityDay, LeadActivityDay } from '@leadforge/contracts';
import { useQuery } from '@tanstack/react-query';
import { errorDetail } from '../api/client';
import { STALE_TIME } from '../api/queryClient';
import { formatCount } from '../billing/plans';
import { DailyChart, DailyTable } from '../components/DailyChart';
import { activityKeys, fetchCreditActivity, fetchLeadActivity } from './activityApi';

type ActivityDay = LeadActivityDay & Pick<CreditActivityDay, 'bought' | 'used'>;

/** The two services' days side by side (both list the same last 30 UTC days). */
function mergeDays(leads: LeadActivityDay[], credits: CreditActivityDay[]): ActivityDay[] {
  const byDate = new Map(credits.map((c) => [c.date, c]));
  return leads.map((day) => ({ ...day, bought: byDate.get(day.date)?.bought ?? 0, used: byDate.get(day.date)?.used ?? 0 }));
}

const COLUMNS: { label: string; value(day: ActivityDay): number; format(n: number): string }[] = [
  { label: 'Searches', value: (d) => d.searches, format: formatCount },
  { label: 'Leads', value: (d) => d.leads, format: formatCount },
  { label: 'With email', value: (d) => d.with_email, format: formatCount },
  { label: 'With phone', value: (d) => d.with_phone, format: formatCount },
  { label: 'Deliverable email', value: (d) => d.verified_email, format: formatCount },
  { label: 'Credits used', value: (d) => d.used, format: formatCount },
  { label: 'Credits bought', value: (d) => d.bought, format: formatCount },
];

const sum = (days: ActivityDay[], value: (day: ActivityDay) => number) => days.reduce((total, day) => total + value(day), 0);

/** The share of the period's leads with a contact: the words carry it, the bar only shows it. */
function ContactShare({ label, count, of, testId }: { label: string; count: number; of: number; testId: string }) {
  const percent = of > 0 ? Math.round((count / of) * 100) : 0;
  return (
    <div className="contact-share" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <span className="contact-share-bar" aria-hidden="true"><span style={{ width: `${percent}%` }} /></span>
        <span><strong>{percent}%</strong> <span className="muted">({formatCount(count)} of {formatCount(of)})</span></span>
      </dd>
    </div>
  );
}

/** The dashboard's "Your last 30 days": the user's leads and credits per day, and how many leads came with contacts. */
export function ActivityCard() {
  const leads = useQuery({ queryKey: activityKeys.leads, queryFn: fetchLeadActivity, staleTime: STALE_TIME.live });
  const credits = useQuery({ queryKey: activityKeys.credits, queryFn: fetchCreditActivity, staleTime: STALE_TIME.live });
  const failed = leads.error ?? credits.error;

  let body;
  if (failed) {
    body = (
      <div className="alert alert-error activity-error" role="alert">
        <span>{errorDetail(failed, 'Your activity could not be loaded.')}</span>
        <button type="button" className="btn btn-secondary" onClick={() => { void leads.refetch(); void credits.refetch(); }}>Try again</button>
      </div>
    );
  } else if (!leads.data || !credits.data) {
    body = <p className="muted" role="status">Loading your activity…</p>;
  } else {
    const days = mergeDays(leads.data, credits.data);
    const delivered = sum(days, (d) => d.leads);
    if (days.every((day) => COLUMNS.every((c) => c.value(day) === 0))) {
      body = (
        <p className="activity-empty" data-testid="activity-empty">
          Nothing to chart yet. Once you search or buy credits, your leads and credits show here day by day, with how many leads came with an email or a phone.
        </p>
      );
    } else {
      body = (
        <>
          <div className="daily-chart-grid activity-charts" data-testid="activity-charts">
            <DailyChart title="Leads delivered" days={days} value={(d) => d.leads} format={formatCount} tone="accent" testId="chart-leads" />
            <DailyChart title="Searches" days={days} value={(d) => d.searches} format={formatCount} tone="primary" testId="chart-searches" />
            <DailyChart title="Credits used" days={days} value={(d) => d.used} format={formatCount} tone="primary" testId="chart-credits-used" />
            <DailyChart title="Credits bought" days={days} value={(d) => d.bought} format={formatCount} tone="success" testId="chart-credits-bought" />
          </div>
          <h3 className="activity-subtitle">Of the {formatCount(delivered)} lead{delivered === 1 ? '' : 's'} delivered</h3>
          <dl className="contact-shares">
            <ContactShare label="With email" count={sum(days, (d) => d.with_email)} of={delivered} testId="share-email" />
            <ContactShare label="With phone" count={sum(days, (d) => d.with_phone)} of={delivered} testId="share-phone" />
            <ContactShare label="Deliverable email" count={sum(days, (d) => d.verified_email)} of={delivered} testId="share-verified" />
          </dl>
          <DailyTable caption="Your last 30 days" days={days} columns={COLUMNS} testId="activity-table" />
        </>
      );
    }
  }

  return (
    <section className="card activity-card" aria-labelledby="activity-title" data-testid="activity-card">
      <h2 id="activity-title">Your last 30 days</h2>
      {body}
    </section>
  );
}

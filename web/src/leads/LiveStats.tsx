import type { LeadStats } from '@leadforge/contracts';
import { formatCount } from '../billing/plans';

const TILES: { key: keyof LeadStats; label: string }[] = [
  { key: 'total_found', label: 'Total found' },
  { key: 'with_email', label: 'With email' },
  { key: 'with_phone', label: 'With phone' },
  { key: 'with_website', label: 'With website' },
  { key: 'credits_used', label: 'Credits used' },
  { key: 'remaining_credits', label: 'Remaining credits' },
];

/** The spec's search-results summary, labelled LIVE; it pulses while a search streams. */
export function LiveStats({ stats, live }: { stats: LeadStats | null; live: boolean }) {
  return (
    <section className="card live-stats" aria-labelledby="live-stats-title" data-testid="live-stats">
      <div className="live-stats-head">
        <h2 id="live-stats-title">Search results</h2>
        <span className={live ? 'live-pill live-pill-on' : 'live-pill'}>LIVE</span>
      </div>
      <dl className="live-stats-grid">
        {TILES.map(({ key, label }) => (
          <div key={key} data-stat={key}>
            <dt>{label}</dt>
            <dd>{stats ? formatCount(stats[key]) : '—'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

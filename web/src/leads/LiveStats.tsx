import type { LeadStats } from '@leadforge/contracts';
import { formatCount } from '../billing/plans';

type Tile = 'total_found' | 'with_email' | 'with_phone' | 'with_website' | 'credits_used' | 'remaining_credits';

const TILES: { key: Tile; label: string }[] = [
  { key: 'total_found', label: 'Total found' },
  { key: 'with_email', label: 'With email' },
  { key: 'with_phone', label: 'With phone' },
  { key: 'with_website', label: 'With website' },
  { key: 'credits_used', label: 'Credits used' },
  { key: 'remaining_credits', label: 'Remaining credits' },
];

/**
 * The spec's search-results summary: labelled LIVE (pulsing) while a search streams, with its outcome once it ended.
 * `balance`: the user's balance now (the header's figure), shown as the remaining credits in place of the
 * balance this search left, which an older search's page would show long after it changed.
 */
export function LiveStats({ stats, live, ended, balance }: { stats: LeadStats | null; live: boolean; ended?: string; balance?: number }) {
  return (
    <section className="card live-stats" aria-labelledby="live-stats-title" data-testid="live-stats">
      <div className="live-stats-head">
        <h2 id="live-stats-title">Search results</h2>
        {live ? <span className="live-pill live-pill-on" data-testid="live-pill">LIVE</span> : ended && <span className="live-pill" data-testid="live-pill">{ended}</span>}
      </div>
      <dl className="live-stats-grid">
        {TILES.map(({ key, label }) => (
          <div key={key} data-stat={key}>
            <dt>{label}</dt>
            <dd>{key === 'remaining_credits' && balance !== undefined ? formatCount(balance) : stats ? formatCount(stats[key]) : '—'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

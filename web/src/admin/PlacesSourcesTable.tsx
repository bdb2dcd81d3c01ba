import type { UsageStatsResponse } from '@leadforge/contracts';
import { whole } from './format';

type PlacesSource = UsageStatsResponse['places_sources'][number]['source'];

const SOURCE_LABELS: Record<PlacesSource, string> = {
  nominatim: 'Nominatim (geocoding)',
  osm: 'OpenStreetMap (Overpass)',
  google: 'Google Places',
  decodo: 'Decodo (Google Maps)',
};

const PERIODS: { label: string; days?: number }[] = [
  { label: 'Since reset' },
  { label: 'Today', days: 1 },
  { label: 'Last 7 days', days: 7 },
  { label: 'Last 30 days', days: 30 },
];

/** What searches asked of each provider in the chosen period: requests within their budget, places returned, searches failed. */
export function PlacesSourcesTable({ sources, days, onDaysChange }: {
  sources: UsageStatsResponse['places_sources'];
  days: number | undefined;
  onDaysChange: (days: number | undefined) => void;
}) {
  return (
    <div className="admin-subsection">
      <div className="admin-section-head">
        <h3 id="admin-places-sources-heading">Places sources</h3>
        <div className="field admin-period">
          <label htmlFor="admin-places-period">Period</label>
          <select id="admin-places-period" value={days ?? ''} onChange={(e) => onDaysChange(e.target.value ? Number(e.target.value) : undefined)}>
            {PERIODS.map((period) => <option key={period.label} value={period.days ?? ''}>{period.label}</option>)}
          </select>
        </div>
      </div>
      {sources.length === 0 ? <p className="muted">No provider requests in this period</p> : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-places-table" aria-labelledby="admin-places-sources-heading" data-testid="places-sources">
            <thead>
              <tr><th>Source</th><th className="admin-num">Requests</th><th className="admin-num">Places</th><th className="admin-num">Errors</th></tr>
            </thead>
            <tbody>
              {sources.map((row) => (
                <tr key={row.source}>
                  <td>{SOURCE_LABELS[row.source]}</td>
                  <td className="admin-num">{whole(row.requests)}</td>
                  <td className="admin-num">{whole(row.places)}</td>
                  <td className={row.errors ? 'admin-num admin-bad' : 'admin-num'}>{whole(row.errors)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

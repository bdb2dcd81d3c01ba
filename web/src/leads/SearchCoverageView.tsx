import type { LeadSearchDetail } from '@leadforge/contracts';
import { formatCount } from '../billing/plans';

type Coverage = NonNullable<LeadSearchDetail['coverage']>;

/** What a search covered (issue 24's `coverage`): the area, each source's answers, and whether the whole area was searched. */
export function SearchCoverageView({ coverage }: { coverage: Coverage }) {
  const sources = Object.entries(coverage.sources);
  return (
    <section className="card search-coverage" aria-labelledby="coverage-title" data-testid="search-coverage">
      <h2 id="coverage-title">Coverage</h2>
      <p className="muted">
        {coverage.area.name} ({coverage.area.boundary === 'polygon' ? 'its boundary' : 'its bounding box'}):{' '}
        {coverage.exhausted ? 'the whole area was searched; there are no more businesses to find there.' : 'more businesses may exist than this search reached.'}
      </p>
      <dl className="coverage-grid">
        <div><dt>Places found</dt><dd>{formatCount(coverage.places_found)}</dd></div>
        <div><dt>Outside the area</dt><dd>{formatCount(coverage.places_outside_area)}</dd></div>
        <div><dt>Duplicates merged</dt><dd>{formatCount(coverage.duplicates_merged)}</dd></div>
        <div><dt>Cells searched</dt><dd>{formatCount(coverage.cells_searched)} ({formatCount(coverage.cells_saturated)} split)</dd></div>
        <div><dt>Provider requests</dt><dd>{formatCount(coverage.provider_requests)}</dd></div>
      </dl>
      {sources.length > 0 && (
        <ul className="coverage-sources">
          {sources.map(([name, source]) => (
            <li key={name}>
              <strong>{name}</strong>: {formatCount(source.places)} places from {formatCount(source.requests)} {source.requests === 1 ? 'request' : 'requests'}
              {source.error && <span className="coverage-error"> — {source.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

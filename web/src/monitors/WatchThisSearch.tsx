import { Link } from 'react-router-dom';
import type { LeadSearchSummary } from '@leadforge/contracts';

/** The dashboard's way to the Monitors page; after a finished search, "Watch this search" makes a monitor of it. */
export function WatchThisSearch({ search }: { search?: Pick<LeadSearchSummary, 'industry' | 'location'> }) {
  const watch = search && `/monitors?${new URLSearchParams({ industry: search.industry, location: search.location })}`;
  return (
    <p className="muted watch-this-search">
      {watch
        ? <>Want the new {search.industry.toLowerCase()} in {search.location} as they appear, and only those? <Link to={watch}>Watch this search</Link> · </>
        : 'Monitors run a search again every day or week and bring only businesses you never had. '}
      <Link to="/monitors">Your monitors</Link>
    </p>
  );
}

import { formatCount } from '../billing/plans';
import './ownedLeads.css';

/**
 * After a search that left out businesses the user already has (not charged): says how many, and
 * offers the same search again with them included (free, marked "Already yours").
 */
export function SkippedOwnedNotice({ skipped, busy, onInclude }: { skipped: number; busy: boolean; onInclude(): void }) {
  if (skipped <= 0) return null;
  return (
    <div className="alert skipped-owned" role="status" data-testid="skipped-owned">
      <span>
        {formatCount(skipped)} {skipped === 1 ? 'business you already have was' : 'businesses you already have were'} skipped
        (not charged again).
      </span>
      <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={onInclude}>Include them (free)</button>
    </div>
  );
}

import { useState } from 'react';
import { countOf, type SearchProgress } from '@leadforge/contracts';
import { formatCount } from '../billing/plans';

interface Props {
  progress: SearchProgress | null;
  quantity: number;
  onCancel(): void;
}

/** While a search runs: what the engine has done so far, and a way to stop (after a confirmation). */
export function SearchProgressView({ progress, quantity, onCancel }: Props) {
  const [confirming, setConfirming] = useState(false);
  const leads = progress?.leads_found ?? 0;
  const percent = Math.min(100, Math.round((leads / Math.max(1, quantity)) * 100));
  return (
    <section className="card search-progress" aria-live="polite" data-testid="search-progress">
      <div className="search-progress-head">
        <span className="spinner" aria-hidden="true" />
        <strong>Finding leads…</strong>
        <span className="muted">{formatCount(leads)} of {formatCount(quantity)}</span>
      </div>
      <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={quantity} aria-valuenow={leads} aria-label="Leads found">
        <span style={{ width: `${percent}%` }} />
      </div>
      <ul className="search-progress-counts">
        <li><strong>{formatCount(progress?.places_found ?? 0)}</strong> {progress?.places_found === 1 ? 'business' : 'businesses'} found</li>
        <li><strong>{formatCount(progress?.websites_checked ?? 0)}</strong> {progress?.websites_checked === 1 ? 'website' : 'websites'} checked</li>
        <li><strong>{formatCount(leads)}</strong> {leads === 1 ? 'lead' : 'leads'} so far</li>
      </ul>
      {confirming ? (
        <div className="search-progress-confirm" role="group" aria-label="Stop the search?">
          <span>Stop now? You keep (and pay for) the {countOf(leads, 'lead')} found so far.</span>
          <button type="button" className="btn btn-danger" onClick={() => { setConfirming(false); onCancel(); }}>Stop search</button>
          <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>Keep going</button>
        </div>
      ) : (
        <button type="button" className="btn btn-secondary" onClick={() => setConfirming(true)}>Cancel search</button>
      )}
    </section>
  );
}

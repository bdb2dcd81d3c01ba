import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchPlacesStatus, locationKeys } from './locationsApi';

const DISMISSED_KEY = 'places-status-dismissed';

/** Which start-up check the user has dismissed the notice of: a later one that fails is shown again. */
function dismissedCheck(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * Says once, on the dashboard, that the business directory could not be reached when the product
 * started: searches would fail (nothing charged) until it can. Dismissed, it stays away for that check.
 */
export function PlacesStatusNotice() {
  const status = useQuery({ queryKey: locationKeys.placesStatus, queryFn: fetchPlacesStatus, staleTime: 5 * 60_000, retry: false });
  const [dismissed, setDismissed] = useState(dismissedCheck);
  const data = status.data;
  if (!data || data.reachable || !data.checked_at || dismissed === data.checked_at) return null;
  const away = data.providers.filter((provider) => !provider.reachable).map((provider) => provider.name);
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, data.checked_at!);
    } catch {
      // Private browsing without storage: dismissed for this page only.
    }
    setDismissed(data.checked_at);
  };
  return (
    <div className="alert alert-warning places-status-notice" role="alert">
      <p>
        The business directory could not be reached when Leadforge started ({away.join(', ')}). Searches fail until it can be
        reached, and nothing is charged for them.
      </p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={dismiss}>Dismiss</button>
    </div>
  );
}

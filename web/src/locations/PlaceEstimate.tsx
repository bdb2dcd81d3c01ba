import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LocationMatch } from '@leadforge/contracts';
import { estimateSentence } from './estimateSentence';
import { fetchEstimate, locationKeys } from './locationsApi';

const DEBOUNCE_MS = 400;

/**
 * Before the search is started: about how many businesses of the industry the chosen place has,
 * when a source can count them cheaply; nothing at all when none can (no guess is shown).
 */
export function PlaceEstimate({ chosen, industry }: { chosen: LocationMatch | null; industry: string }) {
  const [debounced, setDebounced] = useState(industry.trim());
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(industry.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [industry]);
  const estimate = useQuery({
    queryKey: locationKeys.estimate(chosen?.name ?? '', debounced.toLowerCase()),
    queryFn: ({ signal }) => fetchEstimate(chosen!.name, debounced, signal),
    enabled: Boolean(chosen && debounced),
    staleTime: 10 * 60_000,
    retry: false,
  });
  if (!chosen || !debounced) return null;
  if (estimate.isFetching && !estimate.data) return <p className="place-estimate muted" role="status">Counting what exists in {chosen.short_name}…</p>;
  const found = estimate.data?.estimate;
  if (!found) return null;
  return <p className="place-estimate" role="status">{estimateSentence(found)} (an estimate from the map, before you pay).</p>;
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { LocationMatch } from '@leadforge/contracts';
import { fetchLocations, locationKeys } from './locationsApi';
import './locations.css';

/** Typing pauses this long before the places are asked for: a look-up per word, not per key. */
const DEBOUNCE_MS = 300;
const MIN_CHARACTERS = 2;

interface LocationFieldProps {
  id: string;
  value: string;
  /** The text as typed; a place chosen from the list is `chosen`, any typing after it unchooses it. */
  onChange(value: string, chosen: LocationMatch | null): void;
  chosen: LocationMatch | null;
  placeholder?: string;
  describedBy?: string;
}

/**
 * The location input with the places it may mean below it (the WAI-ARIA combobox pattern: arrow keys
 * move through the list, Enter picks, Escape closes). Picking one puts its full name in the field,
 * which is what the search then looks up: that place and no other of the same name.
 */
export function LocationField({ id, value, onChange, chosen, placeholder, describedBy }: LocationFieldProps) {
  const listId = useId();
  const [debounced, setDebounced] = useState(value.trim());
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const wanted = open && !chosen && debounced.length >= MIN_CHARACTERS;
  const matches = useQuery({
    queryKey: locationKeys.matches(debounced.toLowerCase()),
    queryFn: ({ signal }) => fetchLocations(debounced, signal),
    enabled: wanted,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const locations = wanted ? matches.data?.locations ?? [] : [];
  const expanded = wanted && (matches.isFetching || matches.isError || matches.isSuccess);

  const choose = (match: LocationMatch) => {
    onChange(match.name, match);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return setOpen(true);
      if (!locations.length) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + locations.length) % locations.length);
    } else if (event.key === 'Enter' && expanded && active >= 0 && locations[active]) {
      event.preventDefault();
      choose(locations[active]);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const status = !expanded ? '' : matches.isError
    ? 'Place suggestions are unavailable right now; type the place in full.'
    : matches.isFetching && !locations.length
      ? 'Looking up places…'
      : !locations.length
        ? 'No place found by that name. Check the spelling, or add the region or country.'
        : matches.data?.ambiguous
          ? `${locations.length} places have this name: pick the one you mean.`
          : `${locations.length} ${locations.length === 1 ? 'place' : 'places'} found.`;

  return (
    <div className="location-field">
      <input
        id={id}
        name="location"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded && locations.length > 0}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        placeholder={placeholder}
        maxLength={200}
        autoComplete="off"
        value={value}
        onChange={(event) => {
          onChange(event.target.value, null);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label="Places" className="location-options" hidden={!expanded || !locations.length}>
        {locations.map((match, index) => (
          <li
            key={match.name}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'location-option active' : 'location-option'}
            // Chosen before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(match);
            }}
          >
            <span className="location-option-name">{match.name}</span>
            <span className="location-option-kind">{match.kind}{match.country ? ` · ${match.country}` : ''}</span>
          </li>
        ))}
      </ul>
      <p className="location-status muted" role="status" aria-live="polite">{status}</p>
    </div>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';

export interface RemoteData<T> {
  data: T | undefined;
  loading: boolean;
  /** The failure of the last load (the caller decides how to word it). */
  failure: unknown;
  reload(): void;
}

/**
 * Loads `load()` when `key` changes (or `reload` is called), keeping the previous data on screen while
 * the next load runs and dropping answers that arrive after a newer request was made.
 */
export function useRemoteData<T>(load: () => Promise<T>, key: string, enabled = true): RemoteData<T> {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(enabled);
  const [failure, setFailure] = useState<unknown>(null);
  const [nonce, setNonce] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (!enabled) return;
    const request = ++latest.current;
    setLoading(true);
    loadRef.current().then(
      (value) => { if (request === latest.current) { setData(value); setFailure(null); setLoading(false); } },
      (err: unknown) => { if (request === latest.current) { setFailure(err); setLoading(false); } },
    );
  }, [key, nonce, enabled]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { data, loading, failure, reload };
}

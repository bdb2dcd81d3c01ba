import { useEffect } from 'react';
import { useAuth } from '../auth/useAuth';

const NEW_ACCOUNT_MS = 2 * 60_000;

/**
 * The signup credits are granted by billing shortly after registration (an event, so eventually).
 * A brand-new account that still shows 0 credits re-reads its balance a few times until they land.
 */
export function useFreshBalance(): void {
  const { user, refreshUser } = useAuth();
  const credits = user?.credits;
  const createdAt = user?.created_at;
  useEffect(() => {
    // The clock is read here, not while rendering: a render must give the same answer every time.
    if (credits !== 0 || !createdAt || Date.now() - Date.parse(createdAt) >= NEW_ACCOUNT_MS) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > 10) clearInterval(timer);
      void refreshUser();
    }, 1500);
    return () => clearInterval(timer);
  }, [credits, createdAt, refreshUser]);
}

import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { STALE_TIME } from '../api/queryClient';
import { useAuth } from '../auth/useAuth';

/**
 * The signed-in user's credit balance, read from billing (its ledger owns the figure). One query for
 * every place that shows it (the header's badge, the dashboard, the credits page): whatever moves
 * credits invalidates it (a purchase, a search's start and end as its live feed tells, a monitor's
 * run, a promo claim, an admin's change), so no page polls it.
 */
export const balanceKeys = {
  all: ['balance'] as const,
};

export async function fetchBalance(): Promise<number> {
  return (await api.get<{ balance: number }>('/api/payments/balance')).data.balance;
}

/**
 * The balance (nobody signed in: undefined). Until billing first answers, the figure the session
 * came with (auth had it from billing at sign-in) stands in, so the header never starts empty.
 */
export function useBalance(): number | undefined {
  const { user } = useAuth();
  return useQuery({
    queryKey: balanceKeys.all,
    queryFn: fetchBalance,
    enabled: user !== null,
    staleTime: STALE_TIME.live,
    placeholderData: user?.credits,
  }).data;
}

/** After anything that moved credits: every place showing the balance reads it again. */
export function invalidateBalance(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: balanceKeys.all });
}

import { QueryClient } from '@tanstack/react-query';
import { isAxiosError } from 'axios';

/** How long a screen's data counts as fresh before a remount or a focused window reads it again. */
export const STALE_TIME = {
  /** Lists a user or an admin changes from this browser: invalidated after each change anyway. */
  lists: 30_000,
  /** Figures that move on their own (proxy usage, searches running elsewhere). */
  live: 10_000,
  /** Deployment settings (checkout mode, robot check): they change with a restart, not while a page is open. */
  settings: Infinity,
} as const;

/**
 * A read that got no answer (network down, connection reset) is tried once more; an answer, even a
 * 5xx, is final: the services already retry their own calls, and a 4xx says the request was wrong.
 */
export function retryRead(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && isAxiosError(error) && error.response === undefined && error.code !== 'ERR_CANCELED';
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: retryRead, staleTime: STALE_TIME.lists },
      // Writes are never repeated on their own: one click, one request.
      mutations: { retry: false },
    },
  });
}

import { expect } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { bearer, type apiClient } from './api.ts';

type Api = ReturnType<typeof apiClient>;
type Auth = Record<string, string>;

/**
 * What the crash tests (npm start killed, start:distributed's processes killed) set up alike: users
 * each holding their signup credits, each with a search of the same area started.
 */
export interface SearchesInFlight {
  users: Auth[];
  searches: string[];
}

/** A user's balance as `/api/auth/me` says it (through the product `api` reaches: the one restarted after a kill too). */
export const creditsOf = async (api: Api, auth: Auth): Promise<number> => (await api('GET', '/api/auth/me', undefined, auth)).body.credits as number;

const SIGNUP_CREDITS = 10;

export async function startSearchesInFlight(api: Api, options: { count: number; quantity: number; emailPrefix: string }): Promise<SearchesInFlight> {
  const users: Auth[] = [];
  for (let i = 0; i < options.count; i++) {
    const res = await api('POST', '/api/auth/register', { name: `Crash ${i}`, email: `${options.emailPrefix}-${i}@example.com`, password: 'secret123' });
    expect(res.status).toBe(201);
    users.push(bearer(res.body.access_token));
  }
  for (const auth of users) await waitFor(() => creditsOf(api, auth), { until: (credits) => credits === SIGNUP_CREDITS, timeoutMs: 60_000, what: 'the signup credits' });

  const searches: string[] = [];
  for (const auth of users) {
    const res = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: options.quantity }, auth);
    expect(res.status).toBe(201);
    searches.push(res.body.id);
  }
  return { users, searches };
}

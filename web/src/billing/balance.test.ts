import type { AxiosAdapter } from 'axios';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import { balanceKeys, fetchBalance, invalidateBalance } from './balance';

describe('the balance query', () => {
  const adapter = api.defaults.adapter;
  afterEach(() => {
    api.defaults.adapter = adapter;
    vi.unstubAllGlobals();
  });

  it("reads billing's figure", async () => {
    const asked: string[] = [];
    const answer: AxiosAdapter = async (config) => {
      asked.push(`${config.method} ${config.url}`);
      return { data: { balance: 42 }, status: 200, statusText: 'OK', headers: {}, config };
    };
    api.defaults.adapter = answer;
    vi.stubGlobal('localStorage', { getItem: () => 'tok' });
    expect(await fetchBalance()).toBe(42);
    expect(asked).toEqual(['get /api/payments/balance']);
  });

  it('is marked stale by whatever moved credits, so every place showing it reads it again', async () => {
    const client = createQueryClient();
    client.setQueryData(balanceKeys.all, 10);
    expect(client.getQueryState(balanceKeys.all)?.isInvalidated).toBe(false);
    await invalidateBalance(client);
    expect(client.getQueryState(balanceKeys.all)?.isInvalidated).toBe(true);
  });
});

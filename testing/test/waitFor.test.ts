import { describe, expect, it } from 'vitest';
import { waitFor } from '../src/waitFor.ts';

describe('waitFor', () => {
  it('answers the first value that satisfies the condition', async () => {
    let reads = 0;
    const value = await waitFor(() => ++reads, { until: (n) => n >= 3, intervalMs: 1 });
    expect(value).toBe(3);
    expect(reads).toBe(3);
  });

  it('takes any truthy value without a condition, and counts a read that throws as not yet', async () => {
    let reads = 0;
    const value = await waitFor(async () => {
      reads += 1;
      if (reads < 2) throw new Error('connection refused');
      return reads === 2 ? '' : 'up';
    }, { intervalMs: 1 });
    expect(value).toBe('up');
  });

  it('on timeout says what it waited for and the last value it read', async () => {
    await expect(waitFor(() => ({ status: 'pending' }), { until: (r) => r.status === 'done', timeoutMs: 30, intervalMs: 5, what: 'the search to finish' }))
      .rejects.toThrow(/timed out after 30 ms waiting for the search to finish: the last value read was \{ status: 'pending' \}/);
  });

  it('on timeout names the error of the last read', async () => {
    await expect(waitFor(() => { throw new Error('ECONNREFUSED'); }, { timeoutMs: 30, intervalMs: 5, what: 'the server' }))
      .rejects.toThrow(/waiting for the server: the last read threw Error: ECONNREFUSED/);
  });

  it('fails at the deadline even when a read never answers', async () => {
    await expect(waitFor(() => new Promise<boolean>(() => undefined), { timeoutMs: 30, what: 'a frozen server' }))
      .rejects.toThrow(/waiting for a frozen server: nothing was read/);
  });
});

import { describe, expect, it } from 'vitest';
import type { PromoClaim, PromoClaimOutcome } from './paymentsApi';
import { claimNeedsAttention, waitForPromoClaim } from './promoClaim';

const claim = (outcome: PromoClaimOutcome): PromoClaim => ({ order_id: 'O1', outcome, credits: outcome === 'claimed' ? 500 : 0, message: outcome });

describe('waiting for a promo claim after registering', () => {
  it('asks again while the account is being set up, then returns the answer', async () => {
    const answers = [claim('processing'), claim('processing'), claim('claimed')];
    const asked: string[] = [];
    const result = await waitForPromoClaim('O1', { fetchClaim: async (id) => { asked.push(id); return answers.shift()!; }, sleep: async () => undefined });
    expect(result.outcome).toBe('claimed');
    expect(asked).toEqual(['O1', 'O1', 'O1']);
  });

  it('gives up after the attempts and returns the last answer', async () => {
    let calls = 0;
    const result = await waitForPromoClaim('O1', { fetchClaim: async () => { calls++; return claim('processing'); }, sleep: async () => undefined, attempts: 3 });
    expect(result.outcome).toBe('processing');
    expect(calls).toBe(3);
  });

  it('lets a claimed order through and stops on anything else', () => {
    expect(claimNeedsAttention(claim('claimed'))).toBe(false);
    for (const outcome of ['already_claimed', 'not_found', 'not_paid', 'claimed_pending_payment', 'processing'] as const) {
      expect(claimNeedsAttention(claim(outcome))).toBe(true);
    }
  });
});

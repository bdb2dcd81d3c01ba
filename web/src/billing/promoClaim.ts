import type { PromoClaim } from './paymentsApi';

export interface ClaimWait {
  fetchClaim: (orderId: string) => Promise<PromoClaim>;
  sleep?: (ms: number) => Promise<void>;
  attempts?: number;
  delayMs?: number;
}

/**
 * After a promo registration: asks billing what became of the order until it has an answer
 * (the account's welcome travels by event and may take a moment). The last answer otherwise.
 */
export async function waitForPromoClaim(orderId: string, { fetchClaim, sleep = defaultSleep, attempts = 20, delayMs = 500 }: ClaimWait): Promise<PromoClaim> {
  let claim = await fetchClaim(orderId);
  for (let i = 1; i < attempts && claim.outcome === 'processing'; i++) {
    await sleep(delayMs);
    claim = await fetchClaim(orderId);
  }
  return claim;
}

/** Whether the user should simply continue (the credits are there) or read what happened first. */
export const claimNeedsAttention = (claim: PromoClaim): boolean => claim.outcome !== 'claimed';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The promo outcome to show after registering, or null when the credits are simply there (or we cannot tell). */
export async function promoClaimProblem(orderId: string, fetchClaim: (orderId: string) => Promise<PromoClaim>): Promise<PromoClaim | null> {
  try {
    const claim = await waitForPromoClaim(orderId, { fetchClaim });
    return claimNeedsAttention(claim) ? claim : null;
  } catch (err) {
    console.error('Failed to check the promo order:', err);
    return null;
  }
}

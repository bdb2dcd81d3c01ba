/**
 * The CBC500 claim token: billing hands it to the browser that creates the promo order, and only a
 * registration presenting it gets the order's credits (the order id alone travels in the register
 * link, so it is no proof of payment). Kept in this browser's storage, one entry per order.
 */
const key = (orderId: string) => `lf_promo_claim:${orderId}`;

export function rememberPromoClaimToken(orderId: string, token: string): void {
  try {
    localStorage.setItem(key(orderId), token);
  } catch (err) {
    console.error('Could not keep the promo claim token in this browser:', err);
  }
}

export function promoClaimTokenFor(orderId: string): string | undefined {
  try {
    return localStorage.getItem(key(orderId)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function forgetPromoClaimToken(orderId: string): void {
  try {
    localStorage.removeItem(key(orderId));
  } catch { /* storage unavailable: nothing kept */ }
}

import type { RegistrationForm } from './formValidation';
import type { RegisterPayload } from './session';

export const CBC_PROMO_CODE = 'CBC500';

export interface PromoOffer {
  applied: boolean;
  orderId?: string;
  /** The secret this browser was given when it created the order; without it the order is not claimed. */
  claimToken?: string;
}

/**
 * Reads `?promo=cbc500&paid=true&order_id=...`, set by the promo page after payment, and the claim
 * token this browser kept for that order.
 */
export function readPromoOffer(params: URLSearchParams, claimTokenFor: (orderId: string) => string | undefined = () => undefined): PromoOffer {
  const applied = params.get('promo') === 'cbc500' && params.get('paid') === 'true';
  if (!applied) return { applied: false };
  const orderId = params.get('order_id')?.trim();
  if (!orderId) return { applied };
  const claimToken = claimTokenFor(orderId);
  return claimToken ? { applied, orderId, claimToken } : { applied, orderId };
}

export function buildRegisterPayload(form: RegistrationForm, promo: PromoOffer, referralCode?: string, deviceId?: string): RegisterPayload {
  const payload: RegisterPayload = { name: form.name.trim(), email: form.email.trim(), password: form.password };
  if (promo.applied) {
    payload.promo_code = CBC_PROMO_CODE;
    if (promo.orderId) payload.order_id = promo.orderId;
    if (promo.claimToken) payload.promo_claim_token = promo.claimToken;
  }
  if (referralCode) payload.referral_code = referralCode;
  if (deviceId) payload.device_id = deviceId;
  return payload;
}

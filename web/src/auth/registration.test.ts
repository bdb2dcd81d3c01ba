import { describe, expect, it } from 'vitest';
import { buildRegisterPayload, readPromoOffer } from './registration';

const form = { name: ' Ada ', email: ' ada@example.com ', password: 'secret1', confirmPassword: 'secret1' };

describe('readPromoOffer', () => {
  it('applies only when promo=cbc500 and paid=true', () => {
    expect(readPromoOffer(new URLSearchParams('promo=cbc500&paid=true&order_id=ORD-1'))).toEqual({
      applied: true,
      orderId: 'ORD-1',
    });
    expect(readPromoOffer(new URLSearchParams('promo=cbc500&paid=true'))).toEqual({ applied: true });
    expect(readPromoOffer(new URLSearchParams('promo=cbc500&order_id=ORD-1'))).toEqual({ applied: false });
    expect(readPromoOffer(new URLSearchParams('promo=other&paid=true'))).toEqual({ applied: false });
    expect(readPromoOffer(new URLSearchParams(''))).toEqual({ applied: false });
  });

  it('adds the claim token this browser kept for the order, and only for that order', () => {
    const kept = (orderId: string) => (orderId === 'ORD-1' ? 'secret-1' : undefined);
    expect(readPromoOffer(new URLSearchParams('promo=cbc500&paid=true&order_id=ORD-1'), kept)).toEqual({ applied: true, orderId: 'ORD-1', claimToken: 'secret-1' });
    expect(readPromoOffer(new URLSearchParams('promo=cbc500&paid=true&order_id=ORD-2'), kept)).toEqual({ applied: true, orderId: 'ORD-2' });
  });
});

describe('buildRegisterPayload', () => {
  it('sends the trimmed name and email and the password, without confirmPassword', () => {
    expect(buildRegisterPayload(form, { applied: false })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'secret1',
    });
  });

  it('adds the promo code, order id and claim token in the promo flow', () => {
    expect(buildRegisterPayload(form, { applied: true, orderId: 'ORD-1', claimToken: 'secret-1' })).toMatchObject({
      promo_code: 'CBC500',
      order_id: 'ORD-1',
      promo_claim_token: 'secret-1',
    });
    expect(buildRegisterPayload(form, { applied: true, orderId: 'ORD-1' })).not.toHaveProperty('promo_claim_token');
  });

  it('adds the referral code when one is known', () => {
    expect(buildRegisterPayload(form, { applied: false }, 'ref42')).toMatchObject({ referral_code: 'ref42' });
    expect(buildRegisterPayload(form, { applied: false }, undefined)).not.toHaveProperty('referral_code');
  });
});

import { Type } from 'typebox';

export const COMMISSION_RATE = 0.1;

export const AffiliateStatsResponse = Type.Object({
  total_referrals: Type.Integer(),
  total_commissions: Type.Number(),
  referral_code: Type.String(),
  referral_link: Type.String(),
});

export const AffiliateApplyRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  website: Type.Optional(Type.String({ maxLength: 2048 })),
  message: Type.Optional(Type.String({ maxLength: 5000 })),
}, { additionalProperties: false });

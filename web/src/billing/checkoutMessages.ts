/** The spec's error catalogue for the credits and promo pages (section 8). */
export const CREDITS_MESSAGES = {
  createFailed: 'Failed to create payment. Please try again.',
  executeFailed: 'Payment processing failed. Please contact support if you were charged.',
  providerError: 'Payment failed. Please try again.',
  success: (credits: number) => `Payment successful! ${credits} credits added to your account.`,
} as const;

export const PROMO_MESSAGES = {
  createFailed: 'Failed to create payment. Please try again.',
  verificationFailed: 'Payment verification failed. Please contact support.',
  completionFailed: 'Payment processing failed. Please try again.',
  providerError: 'Payment failed. Please try again.',
} as const;

export const TEST_CHECKOUT_LABEL = 'Test checkout — no money moves';

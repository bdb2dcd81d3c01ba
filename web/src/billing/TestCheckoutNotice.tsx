import { TEST_CHECKOUT_LABEL } from './checkoutMessages';

/** Shown wherever a payment button is, while the server uses the built-in test checkout. */
export function TestCheckoutNotice() {
  return (
    <div className="test-checkout-notice" role="note">
      <strong>{TEST_CHECKOUT_LABEL}</strong>
      <span>PayPal is not configured on this server. Purchases complete through a built-in test checkout and nobody is charged.</span>
    </div>
  );
}

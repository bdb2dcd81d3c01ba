import type { CheckoutButtonProps } from './checkout';
import { PaypalButtons } from './PaypalButtons';
import { TestCheckoutButton } from './TestCheckoutButton';

/** PayPal's buttons (sandbox or live), or the built-in test checkout when the server has no PayPal credentials. */
export function CheckoutButton(props: CheckoutButtonProps) {
  return props.config.mode === 'test' ? <TestCheckoutButton {...props} /> : <PaypalButtons {...props} />;
}

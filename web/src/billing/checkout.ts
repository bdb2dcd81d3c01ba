import type { PaymentConfig } from './paymentsApi';

/** What a payment button needs from its page; the page keeps the processing state and the messages. */
export interface CheckoutHandlers {
  /** Creates the order on our server; returns the provider's order id. */
  createOrder: () => Promise<string>;
  /** The buyer approved: capture on our server. Handles its own errors. */
  onApprove: (orderId: string, payerId: string | null) => Promise<void>;
  onCancel: () => void;
  /** `create`: our server could not create the order; `provider`: the checkout itself failed. */
  onError: (stage: 'create' | 'provider', err: unknown) => void;
}

export interface CheckoutButtonProps extends CheckoutHandlers {
  config: PaymentConfig;
  /** What is being bought, for the test checkout's summary and accessible names. */
  item: { name: string; price: number };
  processing: boolean;
}

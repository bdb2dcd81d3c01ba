import { useEffect, useState } from 'react';
import { fetchPaymentConfig, type PaymentConfig } from './paymentsApi';

export type PaymentConfigState = { status: 'loading' } | { status: 'ready'; config: PaymentConfig } | { status: 'failed' };

/** The checkout configuration (PayPal client id and mode, or the test checkout), loaded once per page. */
export function usePaymentConfig(): PaymentConfigState {
  const [state, setState] = useState<PaymentConfigState>({ status: 'loading' });
  useEffect(() => {
    let active = true;
    fetchPaymentConfig()
      .then((config) => active && setState({ status: 'ready', config }))
      .catch((err) => {
        console.error('Failed to load the payment configuration:', err);
        if (active) setState({ status: 'failed' });
      });
    return () => {
      active = false;
    };
  }, []);
  return state;
}

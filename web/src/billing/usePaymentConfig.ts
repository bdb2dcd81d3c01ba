import { useQuery } from '@tanstack/react-query';
import { STALE_TIME } from '../api/queryClient';
import { fetchPaymentConfig, paymentKeys, type PaymentConfig } from './paymentsApi';

export type PaymentConfigState = { status: 'loading' } | { status: 'ready'; config: PaymentConfig } | { status: 'failed' };

/** The checkout configuration (PayPal client id and mode, or the test checkout), read once per visit. */
export function usePaymentConfig(): PaymentConfigState {
  const config = useQuery({
    queryKey: paymentKeys.config,
    queryFn: () => fetchPaymentConfig().catch((err: unknown) => {
      console.error('Failed to load the payment configuration:', err);
      throw err;
    }),
    staleTime: STALE_TIME.settings,
  });
  if (config.data) return { status: 'ready', config: config.data };
  return config.isError ? { status: 'failed' } : { status: 'loading' };
}

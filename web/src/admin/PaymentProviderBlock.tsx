import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorDetail } from '../api/client';
import { STALE_TIME } from '../api/queryClient';
import { paymentKeys } from '../billing/paymentsApi';
import { adminKeys, fetchPaypalConfig, setPaypalSandboxMode } from './adminApi';
import { useNotices } from './notices';
import { useConfirm } from './useConfirm';

/** What checkout runs now, as billing reports it: the built-in test checkout, PayPal's sandbox or PayPal live. */
const RUNNING_MODE = {
  test: { label: 'Test checkout', tone: 'admin-badge-warning', note: 'No PayPal credentials are configured: the built-in test checkout runs, and no money moves.' },
  sandbox: { label: 'PayPal sandbox', tone: 'admin-badge-warning', note: 'PayPal test accounts: no real money is taken.' },
  live: { label: 'PayPal live', tone: 'admin-badge-success', note: 'Customers are charged real money.' },
} as const;

/** The payment provider's mode: sandbox (test money) or live (real charges), switched after a confirmation. */
export function PaymentProviderBlock() {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  // Only an admin switches it, and this block re-reads it after every switch.
  const config = useQuery({ queryKey: adminKeys.paypalConfig, queryFn: fetchPaypalConfig, staleTime: STALE_TIME.settings });
  const modeSwitch = useMutation({
    mutationFn: setPaypalSandboxMode,
    onMutate: () => notices.clear(),
    onSuccess: (answer) => {
      notices.success(answer.message);
      // The checkout this browser shows follows the new mode too.
      void queryClient.invalidateQueries({ queryKey: paymentKeys.config });
      return queryClient.invalidateQueries({ queryKey: adminKeys.paypalConfig });
    },
    onError: (err) => notices.error(errorDetail(err, 'Failed to update PayPal configuration')),
  });

  /** Never rejects (the dialog only resolves, the mutation puts its failure in the banner): its button calls it with `void`. */
  async function switchMode() {
    if (!config.data) return;
    const toSandbox = !config.data.sandbox_mode;
    const ok = await confirm(toSandbox
      ? { title: 'Switch PayPal to sandbox mode?', message: 'Checkout will use PayPal test accounts; no real money will be taken until you switch back to live.', confirmLabel: 'Switch to sandbox' }
      : { title: 'Switch PayPal to LIVE mode?', message: 'Customers will be charged real money from now on. Make sure the live credentials are configured.', confirmLabel: 'Switch to live', danger: true });
    if (ok) modeSwitch.mutate(toSandbox);
  }

  return (
    <div className="admin-subsection" data-testid="payment-provider">
      {confirmDialog}
      <h3>Payment provider (PayPal)</h3>
      {config.isPending ? <p className="muted">Loading PayPal configuration...</p> : null}
      {config.isError ? <p className="alert alert-error">{errorDetail(config.error, 'Failed to fetch PayPal configuration')}</p> : null}
      {config.data && (
        <div className="admin-mode">
          <div>
            <p>
              Mode: <span className={`admin-badge ${RUNNING_MODE[config.data.mode].tone}`} data-testid="payment-mode">{RUNNING_MODE[config.data.mode].label}</span>
            </p>
            <p className="muted">
              {RUNNING_MODE[config.data.mode].note}
              {config.data.mode === 'test' && ` Chosen for when PayPal is configured: ${config.data.sandbox_mode ? 'sandbox' : 'live'}.`}
            </p>
            <p className="muted admin-client-id">Client ID: <code>{config.data.client_id || 'not configured'}</code></p>
          </div>
          <button type="button" className="btn btn-secondary" role="switch" aria-checked={!config.data.sandbox_mode} onClick={() => void switchMode()} disabled={modeSwitch.isPending}>
            {modeSwitch.isPending ? 'Saving...' : config.data.sandbox_mode ? 'Switch to Live' : 'Switch to Sandbox'}
          </button>
        </div>
      )}
    </div>
  );
}

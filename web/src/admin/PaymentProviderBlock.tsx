import { useState } from 'react';
import { errorDetail } from '../api/client';
import { fetchPaypalConfig, setPaypalSandboxMode } from './adminApi';
import { useNotices } from './notices';
import { useConfirm } from './useConfirm';
import { useRemoteData } from './useRemoteData';

/** The payment provider's mode: sandbox (test money) or live (real charges), switched after a confirmation. */
export function PaymentProviderBlock() {
  const notices = useNotices();
  const [confirm, confirmDialog] = useConfirm();
  const config = useRemoteData(fetchPaypalConfig, 'paypal-config');
  const [saving, setSaving] = useState(false);

  async function switchMode() {
    if (!config.data) return;
    const toSandbox = !config.data.sandbox_mode;
    const ok = await confirm(toSandbox
      ? { title: 'Switch PayPal to sandbox mode?', message: 'Checkout will use PayPal test accounts; no real money will be taken until you switch back to live.', confirmLabel: 'Switch to sandbox' }
      : { title: 'Switch PayPal to LIVE mode?', message: 'Customers will be charged real money from now on. Make sure the live credentials are configured.', confirmLabel: 'Switch to live', danger: true });
    if (!ok) return;
    setSaving(true);
    notices.clear();
    try {
      const answer = await setPaypalSandboxMode(toSandbox);
      notices.success(answer.message);
      config.reload();
    } catch (err) {
      notices.error(errorDetail(err, 'Failed to update PayPal configuration'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="admin-subsection" data-testid="payment-provider">
      {confirmDialog}
      <h3>Payment provider (PayPal)</h3>
      {config.failure ? <p className="alert alert-error">{errorDetail(config.failure, 'Failed to fetch PayPal configuration')}</p> : null}
      {config.data && (
        <div className="admin-mode">
          <div>
            <p>
              Mode: <span className={config.data.sandbox_mode ? 'admin-badge admin-badge-warning' : 'admin-badge admin-badge-success'}>{config.data.sandbox_mode ? 'Sandbox' : 'Live'}</span>
            </p>
            <p className="muted admin-client-id">Client ID: <code>{config.data.client_id || 'not configured'}</code></p>
          </div>
          <button type="button" className="btn btn-secondary" role="switch" aria-checked={!config.data.sandbox_mode} onClick={switchMode} disabled={saving}>
            {saving ? 'Saving...' : config.data.sandbox_mode ? 'Switch to Live' : 'Switch to Sandbox'}
          </button>
        </div>
      )}
    </div>
  );
}

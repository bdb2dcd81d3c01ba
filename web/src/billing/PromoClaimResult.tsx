import type { PromoClaim } from './paymentsApi';

/** After a promo registration that did not get the promo credits: the account exists; say why, then let the user go on. */
export function PromoClaimResult({ claim, onContinue }: { claim: PromoClaim; onContinue: () => void }) {
  const pending = claim.outcome === 'claimed_pending_payment' || claim.outcome === 'processing';
  return (
    <div className="promo-result">
      <div className={pending ? 'billing-notice' : 'alert alert-error'} role="alert">
        {claim.message}
      </div>
      <button type="button" className="btn btn-primary btn-block" onClick={onContinue}>
        Continue to dashboard
      </button>
    </div>
  );
}

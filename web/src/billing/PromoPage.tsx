import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { useAuth } from '../auth/useAuth';
import { AuthShell } from '../components/AuthShell';
import { FormAlert } from '../components/FormAlert';
import { Icon } from '../components/Icon';
import { CheckoutButton } from './CheckoutButton';
import type { CheckoutHandlers } from './checkout';
import { PROMO_MESSAGES } from './checkoutMessages';
import { completePromoPayment, createPromoOrder } from './paymentsApi';
import { TestCheckoutNotice } from './TestCheckoutNotice';
import { usePaymentConfig } from './usePaymentConfig';
import './billing.css';

const OFFER = { credits: 500, price: 19, regularPrice: 149 };
const SAVING = OFFER.regularPrice - OFFER.price;
const PERCENT_OFF = Math.round((SAVING / OFFER.regularPrice) * 100);

export function PromoPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const payment = usePaymentConfig();
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState('');

  const handlers: CheckoutHandlers = {
    createOrder: async () => {
      setError('');
      setProcessing(true);
      try {
        return await createPromoOrder();
      } catch (err) {
        setProcessing(false);
        throw err;
      }
    },
    onApprove: async (orderId) => {
      try {
        const result = await completePromoPayment(orderId);
        if (result.success) {
          await navigate(`/register?promo=cbc500&paid=true&order_id=${encodeURIComponent(orderId)}`);
          return;
        }
        setError(PROMO_MESSAGES.verificationFailed);
      } catch (err) {
        console.error('Promo payment completion failed:', err);
        setError(errorDetail(err, PROMO_MESSAGES.completionFailed));
      } finally {
        setProcessing(false);
      }
    },
    onCancel: () => setProcessing(false),
    onError: (stage, err) => {
      console.error(stage === 'create' ? 'Failed to create promo order:' : 'Payment provider error:', err);
      setProcessing(false);
      setError(stage === 'create' ? errorDetail(err, PROMO_MESSAGES.createFailed) : PROMO_MESSAGES.providerError);
    },
  };

  return (
    <AuthShell>
      <div className="auth-card promo-card">
        <p className="promo-eyebrow">
          <Icon name="gift" className="icon-sm" /> CBC Special · Limited time
        </p>
        <h1>{OFFER.credits} leads for ${OFFER.price}</h1>
        <p className="promo-price">
          <span className="promo-now">${OFFER.price}</span>
          <s className="promo-was" aria-label={`Regular price $${OFFER.regularPrice}`}>${OFFER.regularPrice}</s>
        </p>
        <p className="promo-savings">
          <span className="promo-save">Save ${SAVING}</span>
          <span className="promo-off">{PERCENT_OFF}% off</span>
        </p>
        <ul className="promo-includes">
          <li><Icon name="check" className="icon-sm" /> {OFFER.credits} lead credits, added to your new account</li>
          <li><Icon name="check" className="icon-sm" /> Business emails, phone numbers and websites</li>
          <li><Icon name="check" className="icon-sm" /> CSV export, and credits never expire</li>
        </ul>
        <p className="promo-new-users">
          <strong>New users only.</strong> Pay first, then create your account: the {OFFER.credits} credits are added on top of the 10 free signup credits.
        </p>
        {user && (
          <p className="billing-notice">
            You are signed in as {user.email}. This offer is for new accounts: after paying you will create a new one. To top up this account, <Link to="/credits">buy credits</Link>.
          </p>
        )}
        {payment.status === 'ready' && payment.config.mode === 'test' && <TestCheckoutNotice />}
        <FormAlert message={error} />
        {payment.status === 'loading' && <p className="checkout-loading muted">Loading checkout…</p>}
        {payment.status === 'failed' && <p className="checkout-unavailable">Payments are unavailable right now. Please reload the page.</p>}
        {payment.status === 'ready' && (
          <CheckoutButton config={payment.config} item={{ name: `CBC Special: ${OFFER.credits} leads`, price: OFFER.price }} processing={processing} {...handlers} />
        )}
        <p className="auth-switch">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </AuthShell>
  );
}

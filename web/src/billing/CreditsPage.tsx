import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { useAuth } from '../auth/useAuth';
import { FormAlert } from '../components/FormAlert';
import { Icon } from '../components/Icon';
import { CheckoutButton } from './CheckoutButton';
import type { CheckoutHandlers } from './checkout';
import { CREDITS_MESSAGES } from './checkoutMessages';
import { CreditsFaq } from './CreditsFaq';
import { createPayment, executePayment, fetchPurchaseHistory, paymentKeys, requestRefund, type PaymentConfig, type Purchase } from './paymentsApi';
import { PLANS, formatCount, planBonusLabel, pricePerLead, type Plan, type PlanId } from './plans';
import { PurchaseHistory, type HistoryState } from './PurchaseHistory';
import { RefundRequestDialog } from './RefundRequestDialog';
import { TestCheckoutNotice } from './TestCheckoutNotice';
import { usePaymentConfig } from './usePaymentConfig';
import './billing.css';

const POPULAR_PLAN: PlanId = 'growth';

export function CreditsPage() {
  const { user, refreshUser } = useAuth();
  const payment = usePaymentConfig();
  const [processingPlan, setProcessingPlan] = useState<PlanId | null>(null);
  const [success, setSuccess] = useState('');
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');
  const queryClient = useQueryClient();
  const purchases = useQuery({
    queryKey: paymentKeys.history,
    queryFn: () => fetchPurchaseHistory().catch((err: unknown) => {
      // The spec sends history failures to the console only; an earlier list stays on screen.
      console.error('Failed to load purchase history:', err);
      throw err;
    }),
  });
  const [refundFor, setRefundFor] = useState<Purchase | null>(null);
  const refund = useMutation({
    mutationFn: ({ purchase, reason }: { purchase: Purchase; reason: string }) => requestRefund(purchase.id, reason),
    onSuccess: async (answer) => {
      setRefundFor(null);
      setError('');
      if (answer.request.status === 'refunded') {
        setNotice('');
        setSuccess(answer.message);
      } else {
        setSuccess('');
        setNotice(answer.message);
      }
      await Promise.all([refreshUser(), queryClient.invalidateQueries({ queryKey: paymentKeys.history })]);
    },
  });
  const history: HistoryState = purchases.data ? { status: 'ready', purchases: purchases.data } : purchases.isError ? { status: 'failed' } : { status: 'loading' };

  const handlersFor = (plan: Plan): CheckoutHandlers => ({
    createOrder: async () => {
      setSuccess('');
      setNotice('');
      setError('');
      setProcessingPlan(plan.id);
      try {
        return await createPayment(plan.id);
      } catch (err) {
        setProcessingPlan(null);
        throw err;
      }
    },
    onApprove: async (orderId, payerId) => {
      try {
        const result = await executePayment(orderId, payerId);
        if (result.success) setSuccess(CREDITS_MESSAGES.success(result.credits_added));
        else if (result.status === 'pending' && result.message) setNotice(result.message);
        else setError(CREDITS_MESSAGES.executeFailed);
      } catch (err) {
        console.error('Payment execution failed:', err);
        setError(CREDITS_MESSAGES.executeFailed);
      } finally {
        setProcessingPlan(null);
        await Promise.all([refreshUser(), queryClient.invalidateQueries({ queryKey: paymentKeys.history })]);
      }
    },
    onCancel: () => setProcessingPlan(null),
    onError: (stage, err) => {
      console.error(stage === 'create' ? 'Failed to create payment:' : 'Payment provider error:', err);
      setProcessingPlan(null);
      setError(stage === 'create' ? CREDITS_MESSAGES.createFailed : CREDITS_MESSAGES.providerError);
    },
  });

  return (
    <div className="container page billing-page">
      <header className="billing-header">
        <div>
          <h1>Buy credits</h1>
          <p className="muted">1 credit = 1 lead. One-time packs, no subscription, and credits never expire.</p>
        </div>
        <div className="balance-card" aria-live="polite">
          <span className="balance-label">Current balance</span>
          <span className="balance-value" data-testid="credits-balance">
            <Icon name="zap" className="icon-sm" />
            {formatCount(user?.credits ?? 0)}
          </span>
          <span className="muted balance-unit">credits</span>
          <Link to="/dashboard" className="text-link balance-link">
            Generate leads →
          </Link>
        </div>
      </header>

      {success && (
        <div className="billing-success" role="status">
          <Icon name="check" className="icon-sm" />
          {success}
        </div>
      )}
      {notice && (
        <div className="billing-notice" role="status">
          {notice}
        </div>
      )}
      <FormAlert message={error} />
      {payment.status === 'ready' && payment.config.mode === 'test' && <TestCheckoutNotice />}

      <section aria-label="Credit packs">
        <div className="pricing-grid billing-plans">
          {PLANS.map((plan) => (
            <article key={plan.id} className={plan.id === POPULAR_PLAN ? 'card plan-card featured' : 'card plan-card'} data-testid={`plan-${plan.id}`}>
              {plan.id === POPULAR_PLAN && <p className="plan-ribbon">Most popular</p>}
              <h3>{plan.name}</h3>
              <p className="plan-price">
                <span className="plan-amount">${plan.price}</span>
                <span className="muted"> one-time</span>
              </p>
              <p className="plan-credits">{formatCount(plan.credits)} credits</p>
              <p className="muted plan-detail">
                {planBonusLabel(plan) ?? `${formatCount(plan.credits)} leads`}
                <br />
                {pricePerLead(plan)} per lead
              </p>
              <PlanCheckout payment={payment} plan={plan} processing={processingPlan === plan.id} handlers={handlersFor(plan)} />
            </article>
          ))}
        </div>
      </section>

      <div className="billing-columns">
        <PurchaseHistory state={history} onRequestRefund={(purchase) => { refund.reset(); setRefundFor(purchase); }} />
        <CreditsFaq />
      </div>
      {refundFor && (
        <RefundRequestDialog
          purchase={refundFor}
          sending={refund.isPending}
          error={refund.isError ? errorDetail(refund.error, 'The refund could not be requested. Please try again.') : ''}
          onSend={(reason) => refund.mutate({ purchase: refundFor, reason })}
          onCancel={() => setRefundFor(null)}
        />
      )}
    </div>
  );
}

interface PlanCheckoutProps {
  payment: ReturnType<typeof usePaymentConfig>;
  plan: Plan;
  processing: boolean;
  handlers: CheckoutHandlers;
}

function PlanCheckout({ payment, plan, processing, handlers }: PlanCheckoutProps) {
  if (payment.status === 'loading') return <p className="checkout-loading muted">Loading checkout…</p>;
  if (payment.status === 'failed') return <p className="checkout-unavailable">Payments are unavailable right now. Please reload the page.</p>;
  const config: PaymentConfig = payment.config;
  return <CheckoutButton config={config} item={{ name: `${plan.name} pack (${formatCount(plan.credits)} credits)`, price: plan.price }} processing={processing} {...handlers} />;
}

import { useEffect, useId, useRef, useState } from 'react';
import type { CheckoutButtonProps } from './checkout';
import { ProcessingButton } from './ProcessingButton';
import { TEST_CHECKOUT_LABEL } from './checkoutMessages';
import { approveTestCheckout } from './paymentsApi';

/**
 * The built-in test checkout: the server creates a real order in its PayPal-shaped test provider,
 * the buyer approves it here instead of in PayPal's window, and the server captures it exactly as
 * it captures a PayPal order. Clearly labelled; no money moves.
 */
export function TestCheckoutButton({ item, processing, createOrder, onApprove, onCancel, onError }: CheckoutButtonProps) {
  const [orderId, setOrderId] = useState<string | null>(null);
  const [approving, setApproving] = useState(false);

  // start and approve never reject (a failure goes to onError): the buttons call them with `void`.
  const start = async () => {
    try {
      setOrderId(await createOrder());
    } catch (err) {
      onError('create', err);
    }
  };

  const approve = async () => {
    if (!orderId) return;
    setApproving(true);
    try {
      const payerId = await approveTestCheckout(orderId);
      setOrderId(null);
      await onApprove(orderId, payerId);
    } catch (err) {
      setOrderId(null);
      onError('provider', err);
    } finally {
      setApproving(false);
    }
  };

  const cancel = () => {
    setOrderId(null);
    onCancel();
  };

  return (
    <div className="checkout-button">
      {processing ? (
        <ProcessingButton />
      ) : (
        <button type="button" className="btn btn-primary btn-block" onClick={() => void start()} aria-label={`Pay with test checkout: ${item.name}`}>
          Pay with test checkout
        </button>
      )}
      {orderId && <TestCheckoutDialog item={item} orderId={orderId} approving={approving} onApprove={() => void approve()} onCancel={cancel} />}
    </div>
  );
}

interface DialogProps {
  item: { name: string; price: number };
  orderId: string;
  approving: boolean;
  onApprove: () => void;
  onCancel: () => void;
}

function TestCheckoutDialog({ item, orderId, approving, onApprove, onCancel }: DialogProps) {
  const titleId = useId();
  const approveButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    approveButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !approving) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [approving, onCancel]);

  return (
    <div className="dialog-backdrop">
      <div className="test-checkout-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <p className="test-checkout-flag">TEST MODE</p>
        <h2 id={titleId}>{TEST_CHECKOUT_LABEL}</h2>
        <p className="muted">
          This server has no PayPal credentials, so payments run through Leadforge's built-in test checkout. Approving
          completes the order exactly as a PayPal payment would, without charging anyone.
        </p>
        <dl className="test-checkout-summary">
          <div>
            <dt>Item</dt>
            <dd>{item.name}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd>${item.price.toFixed(2)} USD</dd>
          </div>
          <div>
            <dt>Order</dt>
            <dd className="test-checkout-order">{orderId}</dd>
          </div>
        </dl>
        <div className="test-checkout-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={approving}>
            Cancel
          </button>
          <button ref={approveButton} type="button" className="btn btn-primary" onClick={onApprove} disabled={approving}>
            {approving ? 'Approving...' : 'Approve test payment'}
          </button>
        </div>
      </div>
    </div>
  );
}

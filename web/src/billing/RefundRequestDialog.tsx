import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Purchase } from './paymentsApi';
import { formatAmount, formatPurchaseDate, planLabel } from './purchaseFormat';

interface Props {
  purchase: Purchase;
  sending: boolean;
  error: string;
  onSend(reason: string): void;
  onCancel(): void;
}

export const REASON_MIN = 3;
export const REASON_MAX = 500;

/** The confirmation before a refund request: what happens to the money and the credits, and why the buyer asks. */
export function RefundRequestDialog({ purchase, sending, error, onSend, onCancel }: Props) {
  const titleId = useId();
  const reasonId = useId();
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [hint, setHint] = useState('');

  useEffect(() => {
    reasonField.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !sending) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [sending, onCancel]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (text.length < REASON_MIN) {
      setHint(`Please tell us why, in at least ${REASON_MIN} characters.`);
      return;
    }
    setHint('');
    onSend(text);
  }

  return (
    <div className="refund-dialog-backdrop">
      <form className="refund-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} onSubmit={submit} noValidate>
        <h2 id={titleId}>Request a refund?</h2>
        <p>
          {planLabel(purchase.plan_id)} pack, {formatAmount(purchase.amount)}, bought {formatPurchaseDate(purchase.completed_at)}.
        </p>
        <ul>
          <li>If none of its {purchase.credits.toLocaleString('en-US')} credits have been used, the money goes back to your PayPal account at once and the credits leave your balance.</li>
          <li>If some have been used, an administrator reviews your request; you will see the decision here.</li>
        </ul>
        <div className="field">
          <label htmlFor={reasonId}>Why are you asking for a refund?</label>
          <textarea
            id={reasonId}
            ref={reasonField}
            rows={3}
            maxLength={REASON_MAX}
            value={reason}
            onChange={(e) => { setReason(e.target.value); setHint(''); }}
            aria-invalid={hint ? true : undefined}
            disabled={sending}
          />
          {(hint || error) && <p className="refund-error" role="alert">{hint || error}</p>}
        </div>
        <div className="refund-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={sending}>Keep the pack</button>
          <button type="submit" className="btn btn-danger" disabled={sending}>{sending ? 'Sending...' : 'Request refund'}</button>
        </div>
      </form>
    </div>
  );
}

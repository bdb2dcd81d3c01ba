import { useEffect, useId, useRef } from 'react';

interface Props {
  email: string;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The last question before an account is deleted: what goes, and a Cancel that has the focus. */
export function DeleteAccountDialog({ email, deleting, onConfirm, onCancel }: Props) {
  const titleId = useId();
  const cancelButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    cancelButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !deleting) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [deleting, onCancel]);

  return (
    <div className="settings-dialog-backdrop">
      <div className="settings-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>Delete your account for good?</h2>
        <p>The account of <strong>{email}</strong> is closed at once and cannot be reopened. Then, across Leadforge:</p>
        <ul>
          <li>your name and email, searches and their leads, contact messages and affiliate details are erased;</li>
          <li>your remaining credits are lost and cannot be refunded;</li>
          <li>purchase records keep only amounts, dates and reference numbers, for accounting.</li>
        </ul>
        <p className="muted">Download your data first if you want to keep a copy.</p>
        <div className="settings-dialog-actions">
          <button ref={cancelButton} type="button" className="btn btn-secondary" onClick={onCancel} disabled={deleting}>
            Keep My Account
          </button>
          <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={deleting}>
            {deleting ? 'Deleting...' : 'Yes, Delete Everything'}
          </button>
        </div>
      </div>
    </div>
  );
}

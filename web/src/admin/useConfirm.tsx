import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
}

interface Pending extends ConfirmOptions {
  resolve(answer: boolean): void;
}

/** A confirmation step before destructive actions: `await confirm({...})` is true when confirmed. */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const confirm = useCallback((options: ConfirmOptions) => new Promise<boolean>((resolve) => {
    pendingRef.current?.resolve(false);
    pendingRef.current = { ...options, resolve };
    setPending(pendingRef.current);
  }), []);
  const answer = useCallback((value: boolean) => {
    pendingRef.current?.resolve(value);
    pendingRef.current = null;
    setPending(null);
  }, []);
  return [confirm, pending ? <ConfirmDialog pending={pending} onAnswer={answer} /> : null];
}

function ConfirmDialog({ pending, onAnswer }: { pending: Pending; onAnswer(value: boolean): void }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onAnswer(false); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onAnswer]);
  return (
    <div className="admin-dialog-backdrop" onClick={() => onAnswer(false)}>
      <div className="admin-dialog" role="alertdialog" aria-modal="true" aria-labelledby="admin-dialog-title" aria-describedby="admin-dialog-message" onClick={(e) => e.stopPropagation()}>
        <h2 id="admin-dialog-title">{pending.title}</h2>
        <p id="admin-dialog-message">{pending.message}</p>
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-secondary" ref={cancelRef} onClick={() => onAnswer(false)}>Cancel</button>
          <button type="button" className={pending.danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={() => onAnswer(true)}>{pending.confirmLabel}</button>
        </div>
      </div>
    </div>
  );
}

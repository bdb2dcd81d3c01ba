import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { FormAlert } from '../components/FormAlert';
import { confirmOptOut } from './optOutApi';
import './optOut.css';

/**
 * The page of the link mailed to an address someone asked to leave out: its owner confirms with one
 * click (a mail scanner that only opens the link confirms nothing).
 */
export function OptOutConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useMutation({ mutationFn: () => confirmOptOut(token) });

  return (
    <div className="opt-out-page">
      <header className="page-hero">
        <div className="container">
          <h1>Confirm your opt-out</h1>
          <p className="hero-lead">Someone asked Leadforge to leave your email address out of the business contacts it finds. If it was you, confirm it here.</p>
        </div>
      </header>
      <div className="container opt-out-layout">
        <section className="card opt-out-card" aria-labelledby="opt-out-confirm-title">
          <h2 id="opt-out-confirm-title">Remove my email address</h2>
          {!token ? (
            <FormAlert message="This confirmation link is incomplete. Please open the link from the email again." />
          ) : confirm.isSuccess ? (
            <div className="alert alert-success" role="status"><p>{confirm.data}</p></div>
          ) : (
            <>
              <FormAlert message={confirm.isError ? errorDetail(confirm.error, 'The opt-out could not be confirmed. Please try again.') : ''} />
              <p>Once confirmed, your address never appears in new searches and is blanked in searches and exports made before.</p>
              <button type="button" className="btn btn-primary" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
                {confirm.isPending ? 'Confirming...' : 'Confirm the opt-out'}
              </button>
            </>
          )}
          <p className="muted opt-out-again">Link expired? <Link to="/opt-out">Ask again</Link>; we will mail a new one.</p>
        </section>
      </div>
    </div>
  );
}

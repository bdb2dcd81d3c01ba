import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { verifyEmail } from './accountApi';
import { AuthShell } from '../components/AuthShell';
import { FormAlert } from '../components/FormAlert';
import './account.css';

/** The page of the link mailed at registration: one click confirms the address (a mail scanner's visit does not). */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useMutation({ mutationFn: () => verifyEmail(token) });

  return (
    <AuthShell>
      <div className="auth-card">
        <h1>Confirm your email address</h1>
        {!token ? (
          <FormAlert message="This verification link is incomplete. Please open the link from the email again." />
        ) : verify.isSuccess ? (
          <>
            <div className="alert alert-success" role="status">{verify.data}</div>
            <p className="auth-switch"><Link to="/dashboard">Go to your dashboard</Link></p>
          </>
        ) : (
          <>
            <p className="auth-subtitle">Confirming tells us this mailbox is yours.</p>
            <FormAlert message={verify.isError ? errorDetail(verify.error, 'Could not confirm the address; please try again.') : ''} />
            <button type="button" className="btn btn-primary btn-block" disabled={verify.isPending} onClick={() => verify.mutate()}>
              {verify.isPending ? 'Confirming...' : 'Confirm my email address'}
            </button>
          </>
        )}
      </div>
    </AuthShell>
  );
}

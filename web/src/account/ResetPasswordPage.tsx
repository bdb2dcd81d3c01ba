import { useMutation } from '@tanstack/react-query';
import { startTransition, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { confirmPasswordReset } from './accountApi';
import { validateNewPassword } from '../auth/formValidation';
import { useAuth } from '../auth/useAuth';
import { AuthShell } from '../components/AuthShell';
import { FormAlert } from '../components/FormAlert';
import { TextField } from '../components/TextField';
import './account.css';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [invalid, setInvalid] = useState('');
  const newPassword = useMutation({
    mutationFn: (chosen: string) => confirmPasswordReset(token, chosen),
    onSuccess: (message) => {
      // Every session of the account has ended, this browser's too.
      startTransition(logout);
      return navigate('/login', { replace: true, state: { notice: message } });
    },
  });
  const error = invalid || (newPassword.isError ? errorDetail(newPassword.error, 'Could not reset the password; please try again.') : '');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateNewPassword(password, confirmPassword);
    setInvalid(problem ?? '');
    if (problem) {
      newPassword.reset();
      return;
    }
    newPassword.mutate(password);
  };

  return (
    <AuthShell>
      <div className="auth-card">
        <h1>Choose a new password</h1>
        {token ? (
          <>
            <p className="auth-subtitle">Your new password ends every session signed in to your account.</p>
            <form onSubmit={handleSubmit} noValidate>
              <FormAlert message={error} />
              <TextField label="New password" type="password" name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint="At least 6 characters." />
              <TextField label="Confirm new password" type="password" name="confirmPassword" autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} />
              <button type="submit" className="btn btn-primary btn-block" disabled={newPassword.isPending}>
                {newPassword.isPending ? 'Saving...' : 'Set New Password'}
              </button>
            </form>
          </>
        ) : (
          <FormAlert message="This reset link is incomplete. Please open the link from the email again, or ask for a new one." />
        )}
        <p className="auth-switch">
          Link expired? <Link to="/forgot-password">Ask for a new one</Link>
        </p>
      </div>
    </AuthShell>
  );
}

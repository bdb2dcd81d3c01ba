import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { requestPasswordReset } from './accountApi';
import { AuthShell } from '../components/AuthShell';
import { FormAlert } from '../components/FormAlert';
import { FormNotice } from '../components/FormNotice';
import { TextField } from '../components/TextField';
import './account.css';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState('');
  const resetRequest = useMutation({ mutationFn: requestPasswordReset });
  const sent = resetRequest.data ?? '';
  const error = invalid || (resetRequest.isError ? errorDetail(resetRequest.error, 'Could not send the reset link; please try again.') : '');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() === '') {
      setInvalid('Please enter your email address');
      resetRequest.reset();
      return;
    }
    setInvalid('');
    resetRequest.mutate(email.trim());
  };

  return (
    <AuthShell>
      <div className="auth-card">
        <h1>Forgot your password?</h1>
        <p className="auth-subtitle">Enter the email of your account and we will send you a link to choose a new one.</p>
        <FormNotice message={sent} />
        {!sent && (
          <form onSubmit={handleSubmit} noValidate>
            <FormAlert message={error} />
            <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            <button type="submit" className="btn btn-primary btn-block" disabled={resetRequest.isPending}>
              {resetRequest.isPending ? 'Sending...' : 'Send Reset Link'}
            </button>
          </form>
        )}
        <p className="auth-switch">
          Remembered it? <Link to="/login">Back to sign in</Link>
        </p>
      </div>
    </AuthShell>
  );
}

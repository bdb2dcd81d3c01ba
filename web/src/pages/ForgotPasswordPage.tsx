import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { requestPasswordReset } from '../account/accountApi';
import { AuthShell } from '../components/AuthShell';
import { FormAlert } from '../components/FormAlert';
import { FormNotice } from '../components/FormNotice';
import { TextField } from '../components/TextField';
import '../account/account.css';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [sent, setSent] = useState('');
  const [pending, setPending] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() === '') {
      setError('Please enter your email address');
      return;
    }
    setError('');
    setPending(true);
    try {
      setSent(await requestPasswordReset(email.trim()));
    } catch (err) {
      setError(errorDetail(err, 'Could not send the reset link; please try again.'));
    } finally {
      setPending(false);
    }
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
            <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
              {pending ? 'Sending...' : 'Send Reset Link'}
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

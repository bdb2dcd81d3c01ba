import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import '../account/account.css';
import { errorDetail } from '../api/client';
import { validateLogin } from '../auth/formValidation';
import { useAuth } from '../auth/useAuth';
import { AuthShell } from '../components/AuthShell';
import { FormAlert } from '../components/FormAlert';
import { FormNotice } from '../components/FormNotice';
import { TextField } from '../components/TextField';
import { redirectTarget } from '../routing/redirectTarget';

export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  // Set by the reset password page: "Your password has been reset...".
  const notice = (location.state as { notice?: unknown } | null)?.notice;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = validateLogin({ email, password });
    if (invalid) {
      setError(invalid);
      return;
    }
    setError('');
    setPending(true);
    try {
      await login(email.trim(), password);
      navigate(redirectTarget(location.state), { replace: true });
    } catch (err) {
      setError(errorDetail(err, 'Login failed'));
      setPending(false);
    }
  };

  return (
    <AuthShell>
      <div className="auth-card">
        <h1>Welcome back</h1>
        <p className="auth-subtitle">Sign in to your Leadforge account.</p>
        <form onSubmit={handleSubmit} noValidate>
          <FormAlert message={error} />
          {!error && <FormNotice message={typeof notice === 'string' ? notice : ''} />}
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="form-row-end">
            <Link to="/forgot-password" className="text-link">
              Forgot password?
            </Link>
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
            {pending ? 'Signing In...' : 'Sign In'}
          </button>
        </form>
        <p className="auth-switch">
          Don&apos;t have an account? <Link to="/register">Sign up</Link>
        </p>
      </div>
    </AuthShell>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import './account.css';
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
  const [invalid, setInvalid] = useState('');
  // Set by the reset password page: "Your password has been reset...".
  const notice = (location.state as { notice?: unknown } | null)?.notice;
  const signIn = useMutation({
    mutationFn: (credentials: { email: string; password: string }) => login(credentials.email, credentials.password),
    // Pending until the next page is there, so the button cannot be pressed twice.
    onSuccess: () => navigate(redirectTarget(location.state), { replace: true }),
  });
  const error = invalid || (signIn.isError ? errorDetail(signIn.error, 'Login failed') : '');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateLogin({ email, password });
    setInvalid(problem ?? '');
    if (problem) {
      signIn.reset();
      return;
    }
    signIn.mutate({ email: email.trim(), password });
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
          <button type="submit" className="btn btn-primary btn-block" disabled={signIn.isPending}>
            {signIn.isPending ? 'Signing In...' : 'Sign In'}
          </button>
        </form>
        <p className="auth-switch">
          Don&apos;t have an account? <Link to="/register">Sign up</Link>
        </p>
      </div>
    </AuthShell>
  );
}

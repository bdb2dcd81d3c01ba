import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { readReferralCode } from '../affiliate/referralCookie';
import { deviceId } from '../affiliate/deviceCookie';
import { errorDetail } from '../api/client';
import { MIN_PASSWORD_LENGTH, validateRegistration, type RegistrationForm } from '../auth/formValidation';
import { buildRegisterPayload, readPromoOffer } from '../auth/registration';
import { useAuth } from '../auth/useAuth';
import { invalidateBalance } from '../billing/balance';
import { AuthShell } from '../components/AuthShell';
import { fetchPromoClaim, type PromoClaim } from '../billing/paymentsApi';
import { promoClaimProblem } from '../billing/promoClaim';
import { forgetPromoClaimToken, promoClaimTokenFor } from '../billing/promoClaimToken';
import { PromoClaimResult } from '../billing/PromoClaimResult';
import '../billing/billing.css';
import { FormAlert } from '../components/FormAlert';
import { Icon } from '../components/Icon';
import { TextField } from '../components/TextField';

const emptyForm: RegistrationForm = { name: '', email: '', password: '', confirmPassword: '' };

export function RegisterPage() {
  const { register } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const promo = useMemo(() => readPromoOffer(searchParams, promoClaimTokenFor), [searchParams]);
  const [form, setForm] = useState(emptyForm);
  const [invalid, setInvalid] = useState('');
  const [promoProblem, setPromoProblem] = useState<PromoClaim | null>(null);

  // The router keeps a failed navigation in its own state, so nothing is left to wait for.
  const toDashboard = () => void navigate('/dashboard', { replace: true });

  const update = (field: keyof RegistrationForm) => (event: ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  /** Creates the account; a promo order that was not applied comes back as the problem to explain. */
  const signUp = useMutation({
    mutationFn: async (payload: RegistrationForm): Promise<PromoClaim | null> => {
      await register(buildRegisterPayload(payload, promo, readReferralCode(document.cookie), deviceId()));
      if (!promo.applied || !promo.orderId) return null;
      const problem = await promoClaimProblem(promo.orderId, fetchPromoClaim);
      if (!problem) forgetPromoClaimToken(promo.orderId);
      // The order's credits, when claimed, are in the balance now.
      await invalidateBalance(queryClient);
      return problem;
    },
    onSuccess: (problem) => {
      if (problem) setPromoProblem(problem);
      else return navigate('/dashboard', { replace: true });
    },
  });
  const error = invalid || (signUp.isError ? errorDetail(signUp.error, 'Registration failed') : '');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateRegistration(form);
    setInvalid(problem ?? '');
    if (problem) {
      signUp.reset();
      return;
    }
    signUp.mutate(form);
  };

  return (
    <AuthShell>
      <div className="auth-card">
        {promo.applied && (
          <div className="promo-banner" role="status">
            <Icon name="gift" />
            <div>
              <strong>CBC Special Promo Applied</strong>
              <span>500 credits for $19 will be added to your new account.</span>
              {promo.orderId && !promo.claimToken && (
                <span className="promo-banner-warning">
                  This browser did not pay for this order. Open this page in the browser you paid with to receive the 500 credits.
                </span>
              )}
            </div>
          </div>
        )}
        <h1>{promo.applied ? 'Complete Your CBC Registration' : 'Create your account'}</h1>
        <p className="auth-subtitle">
          {promo.applied
            ? 'Your payment is confirmed. Create your account to receive your credits.'
            : 'Start with 10 free credits. No credit card required.'}
        </p>
        {promoProblem ? (
          <PromoClaimResult claim={promoProblem} onContinue={toDashboard} />
        ) : (
          <form onSubmit={handleSubmit} noValidate>
            <FormAlert message={error} />
            <TextField label="Full name" name="name" autoComplete="name" value={form.name} onChange={update('name')} />
            <TextField
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              value={form.email}
              onChange={update('email')}
            />
            <TextField
              label="Password"
              type="password"
              name="password"
              autoComplete="new-password"
              hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
              value={form.password}
              onChange={update('password')}
            />
            <TextField
              label="Confirm password"
              type="password"
              name="confirmPassword"
              autoComplete="new-password"
              value={form.confirmPassword}
              onChange={update('confirmPassword')}
            />
            <button type="submit" className="btn btn-primary btn-block" disabled={signUp.isPending}>
              {signUp.isPending ? 'Creating Account...' : 'Create Account'}
            </button>
          </form>
        )}
        <p className="auth-switch">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </AuthShell>
  );
}

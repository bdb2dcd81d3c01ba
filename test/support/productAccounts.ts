import { waitFor } from '@leadforge/testing';
import { bearer, type apiClient } from './api.ts';
import { registerAdmin } from './verifiedAdmin.ts';

/** The administrator of a test product (the product is started with ADMIN_EMAILS naming it). */
export const ADMIN_EMAIL = 'leads-admin@example.com';

export interface ProductAccounts {
  /** The verified administrator's session. */
  admin: { token: string; id: string };
  register(email: string): Promise<{ token: string; id: string }>;
  /** Sets a user's balance exactly (an admin credit adjustment through the gateway). */
  setCredits(userId: string, token: string, credits: number): Promise<void>;
  balance(token: string): Promise<number>;
}

/** Accounts on a running product, through its gateway; registers the administrator first (verified through its mail in `dataDir`). */
export async function productAccounts(api: ReturnType<typeof apiClient>, dataDir: string): Promise<ProductAccounts> {
  const register = async (email: string) => {
    const res = await api('POST', '/api/auth/register', { name: email.split('@')[0], email, password: 'secret123' });
    if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.access_token as string, id: res.body.user.id as string };
  };
  const admin = await registerAdmin(api, dataDir, { name: ADMIN_EMAIL.split('@')[0], email: ADMIN_EMAIL, password: 'secret123' });
  const balance = async (token: string) => (await api('GET', '/api/auth/me', undefined, bearer(token))).body.credits as number;
  return {
    admin,
    register,
    balance,
    async setCredits(userId, token, credits) {
      // The signup grant arrives by event; wait for it so the adjustment lands on top of it.
      const granted = await waitFor(() => balance(token), { until: (n) => n !== 0, what: 'the signup grant' });
      const change = credits - granted;
      if (change === 0) return;
      const res = await api('POST', '/api/admin/update-credits', { user_id: userId, credits_change: change }, bearer(admin.token));
      if (res.status !== 200) throw new Error(`update-credits: ${res.status} ${JSON.stringify(res.body)}`);
      await waitFor(() => balance(token), { until: (n) => n === credits, what: `a balance of ${credits}` });
    },
  };
}

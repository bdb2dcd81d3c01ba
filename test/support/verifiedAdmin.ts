import path from 'node:path';
import { waitForMail } from '@leadforge/testing';
import type { apiClient } from './api.ts';

/**
 * Registers an address named in the product's ADMIN_EMAILS and opens its verification link, as its
 * owner would: only then is it an administrator. It then signs in again, so its token's claims say
 * admin too (what a service falls back to while auth is slow to answer).
 */
export async function registerAdmin(
  api: ReturnType<typeof apiClient>, dataDir: string, account: { name: string; email: string; password: string },
): Promise<{ token: string; id: string }> {
  const registered = await api('POST', '/api/auth/register', account);
  if (registered.status !== 201) throw new Error(`register ${account.email}: ${registered.status} ${JSON.stringify(registered.body)}`);
  const mail = await waitForMail(path.join(dataDir, 'mail'), account.email.toLowerCase(), /^Confirm your Leadforge email address$/, 30_000);
  const token = new URL(mail.links.find((link) => link.includes('/verify-email?token='))!).searchParams.get('token');
  const verified = await api('POST', '/api/auth/verify-email', { token });
  if (verified.status !== 200) throw new Error(`verify ${account.email}: ${verified.status} ${JSON.stringify(verified.body)}`);
  const session = await api('POST', '/api/auth/login', { email: account.email, password: account.password });
  if (session.body?.user?.role !== 'admin') throw new Error(`${account.email} is not an administrator after verification: ${session.status} ${JSON.stringify(session.body)}`);
  return { token: session.body.access_token as string, id: session.body.user.id as string };
}

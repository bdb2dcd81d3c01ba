import path from 'node:path';
import { waitForMail } from '../../services/auth/test/support/mailbox.ts';
import type { apiClient } from './api.ts';

/**
 * Registers an address named in the product's ADMIN_EMAILS and opens its verification link, as its
 * owner would: only then is it an administrator. The token stays valid (roles are read per request).
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
  return { token: registered.body.access_token as string, id: registered.body.user.id as string };
}

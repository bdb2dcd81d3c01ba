import path from 'node:path';
import { waitForMail } from '@leadforge/testing';
import { bearer, type apiClient } from './api.ts';

/**
 * An opt-out that takes effect, as its owner and the administrators make it: an email is confirmed
 * through the link mailed to it, a phone is approved from the administrators' queue.
 */
export async function provenOptOut(
  api: ReturnType<typeof apiClient>, dataDir: string, adminToken: string, contact: { email: string } | { phone: string },
): Promise<void> {
  const asked = await api('POST', '/api/opt-out', contact);
  if (asked.status !== 202) throw new Error(`opt-out ${JSON.stringify(contact)}: ${asked.status} ${JSON.stringify(asked.body)}`);
  if ('email' in contact) {
    const mail = await waitForMail(path.join(dataDir, 'mail'), contact.email.toLowerCase(), /^Confirm that Leadforge should leave out your email address$/, 30_000);
    const token = new URL(mail.links.find((link) => link.includes('/opt-out/confirm?token='))!).searchParams.get('token');
    const confirmed = await api('POST', '/api/opt-out/confirm', { token });
    if (confirmed.status !== 200) throw new Error(`confirm ${contact.email}: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
    return;
  }
  const digits = (phone: string) => phone.replace(/\D/g, '');
  const pending = (await api('GET', '/api/admin/opt-outs?status=pending', undefined, bearer(adminToken))).body.requests as { id: string; phone: string | null }[];
  const request = pending.find((r) => r.phone && digits(r.phone) === digits(contact.phone));
  if (!request) throw new Error(`the phone ${contact.phone} is not among the pending opt-out requests`);
  const approved = await api('POST', `/api/admin/opt-outs/${request.id}/approve`, undefined, bearer(adminToken));
  if (approved.status !== 200) throw new Error(`approve ${contact.phone}: ${approved.status} ${JSON.stringify(approved.body)}`);
}

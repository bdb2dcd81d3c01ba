import { waitFor } from '@leadforge/testing';
import type { LeadsUnderTest } from './leadsUnderTest.ts';

/** The stored request matching `q` (newest first): the public reply names none, whatever was asked. */
export async function optOutRequestOf(t: LeadsUnderTest, q: string, adminToken: string): Promise<{ id: string; status: string }> {
  const list = await t.call('GET', `/api/admin/opt-outs?q=${encodeURIComponent(q)}`, undefined, adminToken);
  if (!list.body.requests?.length) throw new Error(`no opt-out request matches ${q}`);
  return list.body.requests[0];
}

/** The confirmation the service asked to be mailed to `email` (auth mails it; here it is read from the outbox). */
export async function confirmationOf(t: LeadsUnderTest, email: string): Promise<{ confirm_url: string; expires_at: string; token: string }> {
  const rows = await waitFor(
    () => t.svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'opt_out.confirmation_requested'").whereRaw("envelope->'data'->>'email' = ?", [email]).orderBy('seq', 'desc'),
    { until: (found) => found.length > 0, what: `the opt-out confirmation of ${email}` },
  );
  const data = rows[0].envelope.data as { confirm_url: string; expires_at: string };
  return { ...data, token: new URL(data.confirm_url).searchParams.get('token')! };
}

/** Asks to leave `email` out and confirms it as its owner would, by the mailed link. */
export async function confirmedEmailOptOut(t: LeadsUnderTest, email: string): Promise<void> {
  const asked = await t.call('POST', '/api/opt-out', { email });
  if (asked.status !== 202) throw new Error(`opt-out ${email}: ${asked.status} ${JSON.stringify(asked.body)}`);
  const confirmed = await t.call('POST', '/api/opt-out/confirm', { token: (await confirmationOf(t, email)).token });
  if (confirmed.status !== 200) throw new Error(`confirm ${email}: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
}

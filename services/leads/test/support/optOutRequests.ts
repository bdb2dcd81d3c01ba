import os from 'node:os';
import path from 'node:path';
import { readMailbox, waitFor } from '@leadforge/testing';
import type { LeadsUnderTest } from './leadsUnderTest.ts';

/** The stored request matching `q` (newest first): the public reply names none, whatever was asked. */
export async function optOutRequestOf(t: LeadsUnderTest, q: string, adminToken: string): Promise<{ id: string; status: string }> {
  const list = await t.call('GET', `/api/admin/opt-outs?q=${encodeURIComponent(q)}`, undefined, adminToken);
  if (!list.body.requests?.length) throw new Error(`no opt-out request matches ${q}`);
  return list.body.requests[0];
}

/** Where a service under test (DATA_DIR=:memory:) writes its `.eml` files. */
const MAIL_DIR = path.join(os.tmpdir(), 'leadforge', 'mail');

/** The confirmation link leads mailed to `email`, read from the `.eml` this test process wrote (its pid is in the name). */
export async function confirmationOf(_t: LeadsUnderTest, email: string): Promise<{ confirm_url: string; token: string }> {
  const mail = await waitFor(
    async () => (await readMailbox(MAIL_DIR)).filter((m) => path.basename(m.file).includes(`-${process.pid}-`) && m.to.includes(email) && m.file.endsWith('-opt-out-confirmation.eml')).at(-1),
    { what: `the opt-out confirmation mailed to ${email}` },
  );
  const confirmUrl = mail!.links.find((link) => link.includes('/opt-out/confirm?token='))!;
  return { confirm_url: confirmUrl, token: new URL(confirmUrl).searchParams.get('token')! };
}

/** Asks to leave `email` out and confirms it as its owner would, by the mailed link. */
export async function confirmedEmailOptOut(t: LeadsUnderTest, email: string): Promise<void> {
  const asked = await t.call('POST', '/api/opt-out', { email });
  if (asked.status !== 202) throw new Error(`opt-out ${email}: ${asked.status} ${JSON.stringify(asked.body)}`);
  const confirmed = await t.call('POST', '/api/opt-out/confirm', { token: (await confirmationOf(t, email)).token });
  if (confirmed.status !== 200) throw new Error(`confirm ${email}: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
}

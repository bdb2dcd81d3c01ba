import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@leadforge/contracts';
import { readMailbox, waitFor, waitForMail } from '@leadforge/testing';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';

describe('receipts by email', () => {
  let billing: BillingUnderTest;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadforge-receipts-'));
    billing = await startBillingForTest('pglite', { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:5999' });
  });
  afterAll(async () => {
    await billing?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  // The memory bus's publish resolves once every consumer has handled the events, so the emails they
  // queue are all in the outbox by then; once none is left to send, the mailbox holds all there will be.
  const everyQueuedEmailSent = () => waitFor(
    () => billing.db('kit_mail_outbox').whereNull('sent_at').whereNull('failed_at').count({ n: '*' }).first().then((r) => Number(r!.n)),
    { until: (pending) => pending === 0, what: 'every queued email sent' },
  );

  const event = (topic: string, type: string, key: string, occurredAt: Date, data: unknown) => ({
    topic, key, envelope: { id: crypto.randomUUID(), type, version: 1, occurred_at: occurredAt.toISOString(), key, data },
  });
  const completed = (userId: string, purchaseId: string, completedAt: Date) => event(TOPICS.billingPurchase, 'purchase.completed', userId, completedAt, {
    purchase_id: purchaseId, user_id: userId, plan_id: 'growth', amount: 49, currency: 'USD', credits: 330, completed_at: completedAt.toISOString(),
  });

  it('emails one receipt per completed purchase, even when the event comes twice, and none for an old sale', async () => {
    const user = billing.auth.user('user', { email: 'annie@example.com', name: 'Annie Easley' });
    const message = completed(user.id, 'purchase-1', new Date());
    await billing.bus.publish([message, message, completed(user.id, 'purchase-old', new Date(Date.now() - 3 * 24 * 3600_000))]);

    const receipt = await waitForMail(path.join(dataDir, 'mail'), 'annie@example.com', /^Your Leadforge receipt: 330 credits$/);
    expect(receipt.text).toContain('Hello Annie Easley,');
    expect(receipt.text).toContain('Plan: Growth');
    expect(receipt.text).toContain('Amount paid: $49.00 USD');
    expect(receipt.text).toContain('Reference: purchase-1');
    expect(receipt.html).toContain('Amount paid');
    expect(receipt.links).toContain('http://127.0.0.1:5999/credits');
    await everyQueuedEmailSent();
    const receipts = (await readMailbox(path.join(dataDir, 'mail'))).filter((m) => m.subject.startsWith('Your Leadforge receipt'));
    expect(receipts).toHaveLength(1);
  });

  it('emails a notice for a refund, once', async () => {
    const user = billing.auth.user('user', { email: 'mary@example.com', name: 'Mary Jackson' });
    const refunded = event(TOPICS.billingPurchase, 'purchase.refunded', user.id, new Date(), {
      purchase_id: 'purchase-2', user_id: user.id, amount: 19, credits_reversed: 100, refunded_at: new Date().toISOString(),
    });
    await billing.bus.publish([refunded, refunded]);
    const notice = await waitForMail(path.join(dataDir, 'mail'), 'mary@example.com', /^Your Leadforge refund: \$19\.00$/);
    expect(notice.text).toContain('Amount refunded: $19.00 USD');
    expect(notice.text).toContain('Credits taken back: 100');
    expect(notice.text).toContain('Reference: purchase-2');
    await everyQueuedEmailSent();
    expect((await readMailbox(path.join(dataDir, 'mail'))).filter((m) => m.subject.startsWith('Your Leadforge refund'))).toHaveLength(1);
  });

  it('sends nothing to an account auth no longer knows, lists what it sent in the export, and erases the address with the account', async () => {
    const gone = crypto.randomUUID();
    const kept = billing.auth.user('user', { email: 'katherine@example.com', name: 'Katherine Johnson' });
    await billing.bus.publish([completed(gone, 'purchase-gone', new Date()), completed(kept.id, 'purchase-3', new Date())]);
    await waitForMail(path.join(dataDir, 'mail'), 'katherine@example.com', /^Your Leadforge receipt/);
    await everyQueuedEmailSent();
    expect(await billing.db('kit_mail_outbox').where({ user_id: gone })).toEqual([]);

    const exported = await billing.call('POST', '/internal/account-data/export', { user_id: kept.id, email: kept.email }, billing.internal);
    expect(exported.body.emails_sent).toEqual([expect.objectContaining({ kind: 'receipt', subject: 'Your Leadforge receipt: 330 credits' })]);

    await billing.bus.publish([event(TOPICS.authUser, 'account.deleted', kept.id, new Date(), { user_id: kept.id, email_sha256: 'x', deleted_at: new Date().toISOString() })]);
    const dump = JSON.stringify(await billing.db('kit_mail_outbox').select());
    expect(dump).not.toContain('katherine@example.com');
  });
});

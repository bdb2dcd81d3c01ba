import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { TOPICS } from '@leadforge/contracts';
import { readMailbox, waitFor, waitForMail } from '@leadforge/testing';
import { startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

describe("the leads service's emails", () => {
  let t: LeadsUnderTest;
  let dataDir: string;
  let mailDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadforge-search-mails-'));
    mailDir = path.join(dataDir, 'mail');
    t = await startLeadsUnderTest('pglite', { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:5999' });
  });
  afterAll(async () => {
    await t?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  // The memory bus's publish resolves once every consumer has handled the events, so the emails they
  // queue are all in the outbox by then; once none is left to send, the mailbox holds all there will be.
  const everyQueuedEmailSent = () => waitFor(
    () => t.svc.ctx.db('kit_mail_outbox').whereNull('sent_at').whereNull('failed_at').count({ n: '*' }).first().then((r) => Number(r!.n)),
    { until: (pending) => pending === 0, what: 'every queued email sent' },
  );

  const event = (topic: string, type: string, key: string, occurredAt: Date, data: unknown) => ({
    topic, key, envelope: { id: uuidv7(), type, version: 1, occurred_at: occurredAt.toISOString(), key, data },
  });
  /** A user auth knows, with where their emails go. */
  const user = (email: string, notify_search_ready = true) => {
    const userId = uuidv7();
    t.auth.addRecipient(userId, { email, name: 'Ada Lovelace', notify_search_ready });
    return userId;
  };

  it('emails "your leads are ready" for a search that ran more than a minute, unless turned off', async () => {
    const search = async (userId: string, ranSeconds: number, status = 'completed', results = 17) => {
      const searchId = uuidv7();
      const started = new Date(Date.now() - ranSeconds * 1000);
      await t.bus.publish([
        event(TOPICS.leadsSearch, 'search.requested', searchId, started, { search_id: searchId, user_id: userId, industry: 'bakeries', location: 'Lyon', quantity: 20, deadline_at: new Date().toISOString() }),
        event(TOPICS.leadsSearch, 'search.completed', searchId, new Date(), { search_id: searchId, user_id: userId, results_count: results, credits_used: results, status, reason: null, timestamp: new Date().toISOString() }),
      ]);
    };
    await search(user('long@example.com'), 95);
    const ready = await waitForMail(mailDir, 'long@example.com', /^Your leads are ready: 17 leads$/);
    expect(ready.text).toContain('Hello Ada Lovelace,');
    expect(ready.links).toContain('http://127.0.0.1:5999/dashboard');
    expect(ready.text).toContain('turn it off in your account settings');

    await search(user('quick@example.com'), 20);
    await search(user('failed@example.com'), 95, 'failed');
    await search(user('quiet@example.com', false), 120, 'completed', 3);
    await expect.poll(() => t.svc.ctx.db('search_ready_pending').count({ n: '*' }).first().then((r) => Number(r!.n)), { timeout: 5000 }).toBe(0);
    await everyQueuedEmailSent();
    const sent = (await readMailbox(mailDir)).filter((m) => m.subject.startsWith('Your leads are ready')).map((m) => m.to);
    expect(sent).toEqual([expect.stringContaining('long@example.com')]);
  });

  it("emails a monitor's new businesses when its user asked for it, and always a run that had no credits", async () => {
    const run = async (email: string, data: { status: string; new_leads: number; notify_email: boolean }) => {
      const monitorId = uuidv7();
      const searchId = data.status === 'insufficient_credits' ? null : uuidv7();
      const published = event(TOPICS.leadsSearch, 'monitor.run.completed', monitorId, new Date(), {
        monitor_id: monitorId, user_id: user(email), search_id: searchId, industry: 'Dentists', location: 'Ulm',
        credits_used: data.new_leads, timestamp: new Date().toISOString(), ...data,
      });
      await t.bus.publish([published]);
      return { searchId, eventId: published.envelope.id };
    };
    const news = await run('watcher@example.com', { status: 'completed', new_leads: 3, notify_email: true });
    const mail = await waitForMail(mailDir, 'watcher@example.com', /^3 new dentists in Ulm$/);
    expect(mail.links).toContain(`http://127.0.0.1:5999/monitors?run=${news.searchId}`);
    await run('broke@example.com', { status: 'insufficient_credits', new_leads: 0, notify_email: false });
    const broke = await waitForMail(mailDir, 'broke@example.com', /could not run: no credits left$/);
    expect(broke.subject).toBe('Your monitor for Dentists in Ulm could not run: no credits left');

    // No email: notices off, or nothing new. Checked once both events are handled and every queued email sent.
    const quiet = await Promise.all([
      run('notices-off@example.com', { status: 'completed', new_leads: 2, notify_email: false }),
      run('nothing-new@example.com', { status: 'completed', new_leads: 0, notify_email: true }),
    ]);
    await expect.poll(() => t.svc.ctx.db('kit_handled_events').whereIn('event_id', quiet.map((q) => q.eventId)).count({ n: '*' }).first().then((r) => Number(r!.n)), { timeout: 10_000 }).toBe(2);
    await everyQueuedEmailSent();
    const to = (await readMailbox(mailDir)).map((m) => m.to).join(' ');
    expect(to).not.toContain('notices-off@example.com');
    expect(to).not.toContain('nothing-new@example.com');
  });

  it('sends nothing to an account auth no longer knows, and a deleted account loses the address of what was sent', async () => {
    const gone = uuidv7();
    const monitorId = uuidv7();
    await t.bus.publish([event(TOPICS.leadsSearch, 'monitor.run.completed', monitorId, new Date(), {
      monitor_id: monitorId, user_id: gone, search_id: null, industry: 'Dentists', location: 'Ulm', status: 'insufficient_credits', new_leads: 0, credits_used: 0, notify_email: false, timestamp: new Date().toISOString(),
    })]);
    expect(await t.svc.ctx.db('kit_mail_outbox').where({ user_id: gone })).toEqual([]);

    const leaving = (await t.svc.ctx.db('kit_mail_outbox').where('recipient', 'like', '%watcher@example.com%').first('user_id')).user_id as string;
    await t.bus.publish([event(TOPICS.authUser, 'account.deleted', leaving, new Date(), { user_id: leaving, email_sha256: 'x', deleted_at: new Date().toISOString() })]);
    expect(JSON.stringify(await t.svc.ctx.db('kit_mail_outbox').select())).not.toContain('watcher@example.com');
  });
});

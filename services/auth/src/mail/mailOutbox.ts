import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit';
import type { MailMessage, MailTransport } from './mailTransport.ts';

const HOUR = 3600_000;

/**
 * Queues an email in the transaction of the change it tells about: it is sent if and only if the
 * change commits, and a request never waits for a mail server. Past `giveUpAfterMs` it is dropped
 * (a reset link is worthless once expired).
 */
/** What a sent email of a deleted account keeps as its recipient. */
export const ERASED_RECIPIENT = '(erased)';
/** Kinds whose recipient is erased once sent: the last email to a deleted account's address. */
const ERASE_RECIPIENT_ONCE_SENT = new Set(['account-deleted']);

export async function enqueueMail(trx: Knex.Transaction | Db, message: MailMessage, giveUpAfterMs = 24 * HOUR): Promise<void> {
  await trx('mail_outbox').insert({
    kind: message.kind,
    recipient: message.to,
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    give_up_at: new Date(Date.now() + giveUpAfterMs),
  });
}

interface MailRow {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  give_up_at: Date;
}

export interface MailSender {
  /** Sends what is due now instead of at the next poll. */
  wake(): void;
  stop(): Promise<void>;
}

export interface MailSenderOptions {
  db: Db;
  transport: MailTransport;
  log: Logger;
  pollMs?: number;
  /** The first retry waits this long, each next one twice as long (up to an hour); also the claim's lease. */
  retryBaseMs: number;
}

/**
 * Claims one due email at a time by pushing its next attempt into the future first (so another replica
 * skips it while it is being sent, and a crash mid-send retries it later), then sends it and clears
 * its text. At most one email per claim can be sent twice: when a replica dies after the server took it.
 */
export function startMailSender(options: MailSenderOptions): MailSender {
  const { db, transport, log } = options;
  const retryBaseSeconds = Math.max(1, Math.round(options.retryBaseMs / 1000));
  let draining: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function claim(): Promise<MailRow | undefined> {
    const result = await db.raw(`
      UPDATE mail_outbox SET attempts = attempts + 1,
        next_attempt_at = now() + make_interval(secs => LEAST(3600, ?::integer * power(2, attempts)))
      WHERE id = (
        SELECT id FROM mail_outbox
        WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, recipient, subject, text_body, html_body, attempts, give_up_at`, [retryBaseSeconds]);
    return result.rows[0];
  }

  async function sendOne(row: MailRow): Promise<void> {
    if (new Date(row.give_up_at).getTime() < Date.now()) {
      await db('mail_outbox').where({ id: row.id }).update({
        failed_at: db.fn.now(), text_body: null, html_body: null,
        ...(ERASE_RECIPIENT_ONCE_SENT.has(row.kind) ? { recipient: ERASED_RECIPIENT } : {}),
      });
      log.error({ mailId: row.id, kind: row.kind, attempts: row.attempts - 1 }, 'email given up: it could not be sent in time');
      return;
    }
    try {
      await transport.send({ to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body, kind: row.kind });
      await db('mail_outbox').where({ id: row.id }).update({
        sent_at: db.fn.now(), text_body: null, html_body: null, last_error: null,
        ...(ERASE_RECIPIENT_ONCE_SENT.has(row.kind) ? { recipient: ERASED_RECIPIENT } : {}),
      });
    } catch (err) {
      const message = (err as Error).message.slice(0, 500);
      await db('mail_outbox').where({ id: row.id }).update({ last_error: message });
      log.warn({ mailId: row.id, kind: row.kind, attempt: row.attempts, err: message }, 'email not sent; it will be retried');
      // Retry when the claim runs out rather than at some later poll.
      const delayMs = Math.min(3600, retryBaseSeconds * 2 ** (row.attempts - 1)) * 1000;
      setTimeout(wake, delayMs + 50).unref();
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      for (let row = await claim(); row && !stopped; row = await claim()) await sendOne(row);
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain()
      .catch((err) => log.warn({ err }, 'mail outbox unavailable; retrying at the next poll'))
      .finally(() => { draining = undefined; });
  }

  const timer = setInterval(wake, options.pollMs ?? 5_000);
  timer.unref();
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await draining;
      transport.close();
    },
  };
}

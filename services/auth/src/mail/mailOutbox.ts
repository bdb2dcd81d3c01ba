import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { LeasedQueue, type QueueDeclaration } from '@leadforge/kit/work';
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
  /** The first retry waits up to this long, each next one up to twice as long (at most an hour); also the claim's lease. */
  retryBaseMs: number;
}

/** The emails to send. One given up on is parked for good, its text cleared (it may hold a reset link): listed, never replayed. */
export const MAIL_QUEUE: QueueDeclaration = {
  queue: 'mail',
  table: { table: 'mail_outbox', pending: 'sent_at IS NULL AND failed_at IS NULL', parked: 'failed_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error' },
};

/**
 * Sends queued emails on the kit's LeasedQueue: a claimed email is leased to one replica (a crash
 * mid-send retries it once the lease ends), retried with jittered growing pauses, and given up
 * (parked, its text cleared) past its `give_up_at`. At most one email per claim can be sent twice:
 * when a replica dies after the server took it.
 */
export function startMailSender(options: MailSenderOptions): MailSender {
  const { db, transport, log } = options;
  // Sent and given-up emails keep no text (it may hold a reset link), nor a deleted account's address.
  const cleared = (row: MailRow) => ({
    text_body: null, html_body: null,
    ...(ERASE_RECIPIENT_ONCE_SENT.has(row.kind) ? { recipient: ERASED_RECIPIENT } : {}),
  });
  const queue = new LeasedQueue<MailRow>({
    db,
    logger: log,
    service: 'auth',
    ...MAIL_QUEUE,
    leaseMs: options.retryBaseMs,
    pollMs: options.pollMs ?? 5_000,
    retry: { baseMs: options.retryBaseMs, maxMs: HOUR },
    async work(row) {
      if (new Date(row.give_up_at).getTime() < Date.now()) return { kind: 'park', error: 'It could not be sent in time' };
      await transport.send({ to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body, kind: row.kind });
      return { kind: 'done' };
    },
    done: (row) => ({ sent_at: db.fn.now(), ...cleared(row) }),
    park: (row) => ({ failed_at: db.fn.now(), ...cleared(row) }),
  });
  queue.start();
  return {
    wake: () => queue.wake(),
    async stop() {
      await queue.stop();
      transport.close();
    },
  };
}

import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { KitConfig } from '../config/kitConfig.ts';
import { LeasedQueue, type QueueDeclaration } from '../work/leasedQueue.ts';
import { renderLetter, type MailTemplates } from './letters.ts';
import type { MailConfig } from './mailConfig.ts';
import { mailTransportFrom, type MailTransport } from './mailTransport.ts';

const HOUR = 3600_000;
const TABLE = 'kit_mail_outbox';

/**
 * A service's emails to send, for its parked-work view: one given up on is parked for good, its text
 * cleared (it may hold a reset link), so it is listed, never replayed.
 */
export const MAIL_QUEUE: QueueDeclaration = {
  queue: 'mail',
  table: { table: TABLE, pending: 'sent_at IS NULL AND failed_at IS NULL', parked: 'failed_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error' },
};

/** What a sent email of a deleted account keeps as its recipient. */
export const ERASED_RECIPIENT = '(erased)';

/** One email to queue: a template of the service's, its data, and who gets it. */
export interface MailToSend<T extends MailTemplates, K extends keyof T & string> {
  to: string;
  template: K;
  data: Parameters<T[K]>[0];
  /** The account it is for: `eraseUser` drops its unsent emails and the address of those sent. */
  userId?: string;
  /** Past this, an email not yet sent is given up (a reset link is worthless once expired); a day unless given. */
  giveUpAfterMs?: number;
}

/** An email as the owner's account export lists it. */
export interface SentMail {
  kind: string;
  subject: string;
  queued_at: string;
  sent_at: string | null;
}

export interface MailerOptions<T extends MailTemplates> {
  db: Db;
  /** The service sending: names the queue in metrics and logs. */
  service: string;
  config: MailConfig;
  kit: Pick<KitConfig, 'dataDir' | 'publicUrl'>;
  log: Logger;
  templates: T;
  /** Kinds whose recipient is erased once sent (the last email to a deleted account's address). */
  eraseRecipientOnceSent?: readonly (keyof T & string)[];
  pollMs?: number;
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

const isoOrNull = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * A service's emails: `send` renders a template and queues it in the transaction of the change it
 * tells about (so it goes if and only if the change commits, and no request waits for a mail
 * server), in the service's own `kit_mail_outbox`. Once started, a sender on the kit's LeasedQueue
 * delivers them through `SMTP_URL` (or writes `.eml` files without it): a claimed email is leased to
 * one replica (a crash mid-send retries it once the lease ends), retried with jittered growing pauses,
 * and given up (parked, its text cleared) past its `give_up_at`. At most one email per claim can be
 * sent twice: when a replica dies after the server took it.
 *
 * ```ts
 * await mailer.send(trx, { to: user.email, userId: user.id, template: 'receipt', data: { name, ...receipt } });
 * ```
 */
export class Mailer<T extends MailTemplates> {
  readonly transport: MailTransport;
  private queue?: LeasedQueue<MailRow>;

  constructor(private readonly options: MailerOptions<T>) {
    this.transport = mailTransportFrom(options.config, options.kit, options.log);
  }

  /** Queues one email in `trx` (a transaction, or the database for an email on its own); sent once it commits. */
  async send<K extends keyof T & string>(trx: Knex.Transaction | Db, mail: MailToSend<T, K>): Promise<void> {
    const letter = this.options.templates[mail.template](mail.data, { publicUrl: this.options.kit.publicUrl });
    const rendered = renderLetter(letter, { publicUrl: this.options.kit.publicUrl });
    await trx(TABLE).insert({
      kind: mail.template,
      recipient: mail.to,
      user_id: mail.userId ?? null,
      subject: rendered.subject,
      text_body: rendered.text,
      html_body: rendered.html,
      give_up_at: new Date(Date.now() + (mail.giveUpAfterMs ?? 24 * HOUR)),
    });
    const wake = () => this.wake();
    if ('executionPromise' in trx && trx.isTransaction) trx.executionPromise.then(wake, () => undefined);
    else wake();
  }

  /** Sends what is due now instead of at the next poll. */
  wake(): void {
    this.queue?.wake();
  }

  /** Drops an account's unsent emails and the address of those sent (by the address: auth's, which knows it). */
  async eraseAddress(trx: Knex.Transaction | Db, address: string): Promise<void> {
    await trx(TABLE).where({ recipient: address }).whereNull('sent_at').whereNull('failed_at').delete();
    await trx(TABLE).where({ recipient: address }).update({ recipient: ERASED_RECIPIENT, user_id: null });
  }

  /** Drops an account's unsent emails and the address of those sent (by the account, on `account.deleted`). */
  async eraseUser(trx: Knex.Transaction | Db, userId: string): Promise<void> {
    await trx(TABLE).where({ user_id: userId }).whereNull('sent_at').whereNull('failed_at').delete();
    await trx(TABLE).where({ user_id: userId }).update({ recipient: ERASED_RECIPIENT });
  }

  /** The emails queued for an account (by its id, or its address), oldest first, for its data export. */
  async sentTo(db: Db, who: { userId: string } | { address: string }): Promise<SentMail[]> {
    const rows = await db(TABLE).where('userId' in who ? { user_id: who.userId } : { recipient: who.address }).orderBy('id')
      .select('kind', 'subject', 'created_at', 'sent_at');
    return rows.map((m) => ({ kind: m.kind, subject: m.subject, queued_at: new Date(m.created_at).toISOString(), sent_at: isoOrNull(m.sent_at) }));
  }

  /** Starts sending queued emails; logs where they go. */
  start(): void {
    const { db, log, service, config } = this.options;
    const eraseOnceSent = new Set<string>(this.options.eraseRecipientOnceSent ?? []);
    // Sent and given-up emails keep no text (it may hold a reset link), nor a deleted account's address.
    const cleared = (row: MailRow) => ({
      text_body: null, html_body: null,
      ...(eraseOnceSent.has(row.kind) ? { recipient: ERASED_RECIPIENT, user_id: null } : {}),
    });
    const transport = this.transport;
    this.queue = new LeasedQueue<MailRow>({
      db,
      logger: log,
      service,
      ...MAIL_QUEUE,
      leaseMs: config.retryBaseMs,
      pollMs: this.options.pollMs ?? 5_000,
      retry: { baseMs: config.retryBaseMs, maxMs: HOUR },
      async work(row) {
        if (new Date(row.give_up_at).getTime() < Date.now()) return { kind: 'park', error: 'It could not be sent in time' };
        await transport.send({ to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body, kind: row.kind });
        return { kind: 'done' };
      },
      done: (row) => ({ sent_at: db.fn.now(), ...cleared(row) }),
      park: (row) => ({ failed_at: db.fn.now(), ...cleared(row) }),
    });
    this.queue.start();
    if (transport.delivers) log.info({ mail: transport.describe }, `${service}'s emails are sent through SMTP`);
    else log.warn({ mail: transport.describe }, `no SMTP_URL: ${service}'s emails are written as .eml files, not sent`);
  }

  async stop(): Promise<void> {
    await this.queue?.stop();
    this.transport.close();
  }
}

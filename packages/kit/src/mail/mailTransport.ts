import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { KitConfig } from '../config/kitConfig.ts';
import type { MailConfig } from './mailConfig.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Names the message in logs and file names (e.g. `password-reset`). */
  kind: string;
}

/** Where emails go: an SMTP server, or (outside production) `.eml` files to open by hand. */
export interface MailTransport {
  describe: string;
  /** False for the `.eml` stand-in: nothing reaches anyone's inbox. */
  delivers: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/** The `SMTP_URL` transport: STARTTLS whenever the server offers it (smtps:// for implicit TLS). */
function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // Bounded, so a stuck server delays the mail loop, never a request.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  }, { from });
  const host = new URL(url).host;
  return {
    describe: `SMTP ${host}`,
    delivers: true,
    async send(message) {
      await transporter.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
    close: () => transporter.close(),
  };
}

/** Writes each message as an `.eml` file and logs its subject and links: nothing leaves the machine. */
function emlFileTransport(dir: string, from: string, log: Logger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from });
  let sequence = 0;
  return {
    describe: `.eml files in ${dir}`,
    delivers: false,
    async send(message) {
      const info = await composer.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${process.pid}-${++sequence}-${message.kind}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.warn({ to: message.to, subject: message.subject, links: message.text.match(LINK) ?? [], file },
        'EMAIL NOT SENT (no SMTP_URL): written to a .eml file instead');
    },
    close: () => composer.close(),
  };
}

/**
 * `SMTP_URL` picks SMTP; without it, `.eml` files under `$DATA_DIR/mail/`, which production refuses
 * unless it runs with the labelled stand-ins on loopback (`npm run start:distributed`).
 */
export function mailTransportFrom(mail: Pick<MailConfig, 'smtpUrl' | 'mailFrom'>, config: Pick<KitConfig, 'dataDir'>, log: Logger): MailTransport {
  if (mail.smtpUrl) return smtpTransport(mail.smtpUrl, mail.mailFrom);
  // An in-memory run (tests) has no data folder of its own: its mail goes to the temp folder.
  const dataDir = config.dataDir === ':memory:' ? path.join(os.tmpdir(), 'leadforge') : path.resolve(config.dataDir);
  return emlFileTransport(path.join(dataDir, 'mail'), mail.mailFrom, log);
}

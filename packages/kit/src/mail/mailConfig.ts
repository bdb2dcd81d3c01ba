import { Variable, type ConfigProblems } from '../config/environment.ts';

/**
 * The variables of a service that sends emails: spread into its `config.ts` schema
 * (`Type.Object({ ...MailVariables, ... })`) and read with `mailConfigFrom`.
 */
export const MailVariables = {
  SMTP_URL: Variable.string({
    description: 'mail server for the service\'s emails, `smtp://user:pass@smtp.example.com:587` (STARTTLS when offered) or `smtps://...:465`',
    defaultText: 'each email written as an `.eml` file under `$DATA_DIR/mail/`, its subject and links logged',
    pattern: /^smtps?:\/\/[^\s]+$/, hint: 'smtp://user:pass@smtp.example.com:587', secret: true, production: true, example: 'smtp://user:pass@127.0.0.1:2525',
  }),
  MAIL_FROM: Variable.string({ description: 'sender of the service\'s emails', defaultText: '`Leadforge <no-reply@` + the host of `PUBLIC_URL` + `>`' }),
  MAIL_RETRY_BASE_SECONDS: Variable.integer({ description: 'first wait before an email the server refused is tried again (doubling, up to an hour)', default: 60, minimum: 1, maximum: 3600 }),
};

/** What a service's mailer reads from the environment. */
export interface MailConfig {
  /** SMTP_URL; unset, emails are written as `.eml` files (refused when production needs real providers). */
  smtpUrl?: string;
  /** MAIL_FROM, or the default sender on PUBLIC_URL's host. */
  mailFrom: string;
  /** The first pause before an email that could not be sent is tried again. */
  retryBaseMs: number;
}

export function mailConfigFrom(
  vars: { SMTP_URL?: string; MAIL_FROM?: string; MAIL_RETRY_BASE_SECONDS: number },
  problems: ConfigProblems,
  kit: { publicUrl: string; requireRealProviders: boolean },
): MailConfig {
  if (!vars.SMTP_URL && kit.requireRealProviders && !problems.names('SMTP_URL')) problems.add('SMTP_URL', 'is required in production (smtp://user:pass@smtp.example.com:587)');
  return {
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `Leadforge <no-reply@${new URL(kit.publicUrl).hostname}>`,
    retryBaseMs: vars.MAIL_RETRY_BASE_SECONDS * 1000,
  };
}

import { Type, type Static } from 'typebox';
import { collectConfig, readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';

/** Every variable auth reads besides the kit's: its one declaration, read at start and documented from here. */
export const AuthVariables = Type.Object({
  JWT_PRIVATE_KEY: Variable.string({ description: 'RS256 private key (PEM) for access tokens', defaultText: 'generated once, kept in auth\'s database', secret: true }),
  ACCESS_TOKEN_TTL_SECONDS: Variable.integer({ description: 'access-token lifetime', default: 12 * 3600, minimum: 60, maximum: 30 * 24 * 3600 }),
  ADMIN_EMAILS: Variable.string({ description: 'comma-separated administrator emails: each becomes admin once its owner opens the verification link mailed at registration (a verified one also at each start); `npm run user:promote` needs no verification', defaultText: 'unset' }),
  AUTH_REGISTER_PER_IP_PER_HOUR: Variable.integer({ description: 'sign-ups per address per hour', default: 20, minimum: 1 }),
  AUTH_LOGIN_PER_IP_PER_MINUTE: Variable.integer({ description: 'log-ins per address per minute', default: 30, minimum: 1 }),
  AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES: Variable.integer({ description: 'log-ins per email per 15 minutes', default: 10, minimum: 1 }),
  AUTH_PASSWORD_RESET_PER_IP_PER_HOUR: Variable.integer({ description: 'password reset requests (and confirmations) per address per hour', default: 20, minimum: 1 }),
  AUTH_PASSWORD_RESET_PER_EMAIL_PER_HOUR: Variable.integer({ description: 'password reset requests per email per hour', default: 3, minimum: 1 }),
  AUTH_PASSWORD_CHANGE_PER_USER_PER_15_MINUTES: Variable.integer({ description: 'password changes per user per 15 minutes', default: 10, minimum: 1 }),
  AUTH_ACCOUNT_EXPORT_PER_USER_PER_15_MINUTES: Variable.integer({ description: 'data exports (`GET /api/account/export`, which reads every service) per user per 15 minutes', default: 5, minimum: 1 }),
  SMTP_URL: Variable.string({
    description: 'mail server for account emails, `smtp://user:pass@smtp.example.com:587` (STARTTLS when offered) or `smtps://...:465`',
    defaultText: 'each email written as an `.eml` file under `$DATA_DIR/mail/`, its subject and links logged',
    pattern: /^smtps?:\/\/[^\s]+$/, hint: 'smtp://user:pass@smtp.example.com:587', secret: true, production: true, example: 'smtp://user:pass@127.0.0.1:2525',
  }),
  MAIL_FROM: Variable.string({ description: 'sender of account emails', defaultText: '`Leadforge <no-reply@` + the host of `PUBLIC_URL` + `>`' }),
  MAIL_RETRY_BASE_SECONDS: Variable.integer({ description: 'first wait before an email the server refused is tried again (doubling, up to an hour)', default: 60, minimum: 1, maximum: 3600 }),
});
export type AuthVariables = Static<typeof AuthVariables>;

/** What auth reads from the environment, checked once at start. */
export interface AuthConfig {
  /** JWT_PRIVATE_KEY; unset, auth keeps a generated signing key in its database. */
  jwtPrivateKey?: string;
  tokenTtlSeconds: number;
  /** ADMIN_EMAILS, as given: the accounts promoted to admin at start. */
  adminEmails?: string;
  limits: {
    registerPerIpPerHour: number;
    loginPerIpPerMinute: number;
    loginPerEmailPer15Minutes: number;
    resetPerIpPerHour: number;
    resetPerEmailPerHour: number;
    passwordChangePerUserPer15Minutes: number;
    exportPerUserPer15Minutes: number;
  };
  /** SMTP_URL; unset, emails are written as `.eml` files (refused when production needs real providers). */
  smtpUrl?: string;
  /** MAIL_FROM, or the default sender on PUBLIC_URL's host. */
  mailFrom: string;
  /** The first pause before an email that could not be sent is tried again. */
  mailRetryBaseMs: number;
}

/** Auth's configuration from its variables; `kit` gives the public address and whether production needs real providers. */
export function authConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { publicUrl: string; requireRealProviders: boolean }): AuthConfig {
  const vars = readVariables(AuthVariables, env, problems);
  if (!vars.SMTP_URL && kit.requireRealProviders && !problems.names('SMTP_URL')) problems.add('SMTP_URL', 'is required in production (smtp://user:pass@smtp.example.com:587)');
  return {
    jwtPrivateKey: vars.JWT_PRIVATE_KEY,
    tokenTtlSeconds: vars.ACCESS_TOKEN_TTL_SECONDS,
    adminEmails: vars.ADMIN_EMAILS,
    limits: {
      registerPerIpPerHour: vars.AUTH_REGISTER_PER_IP_PER_HOUR,
      loginPerIpPerMinute: vars.AUTH_LOGIN_PER_IP_PER_MINUTE,
      loginPerEmailPer15Minutes: vars.AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES,
      resetPerIpPerHour: vars.AUTH_PASSWORD_RESET_PER_IP_PER_HOUR,
      resetPerEmailPerHour: vars.AUTH_PASSWORD_RESET_PER_EMAIL_PER_HOUR,
      passwordChangePerUserPer15Minutes: vars.AUTH_PASSWORD_CHANGE_PER_USER_PER_15_MINUTES,
      exportPerUserPer15Minutes: vars.AUTH_ACCOUNT_EXPORT_PER_USER_PER_15_MINUTES,
    },
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `Leadforge <no-reply@${new URL(kit.publicUrl).hostname}>`,
    mailRetryBaseMs: vars.MAIL_RETRY_BASE_SECONDS * 1000,
  };
}

/** Auth's configuration alone, every problem thrown together. */
export function loadAuthConfig(env: NodeJS.ProcessEnv, kit: { publicUrl: string; requireRealProviders: boolean }): AuthConfig {
  return collectConfig((problems) => authConfigFrom(env, problems, kit));
}

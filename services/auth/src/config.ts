import { readInt, readVar } from '@leadforge/kit/config';

/** What auth reads from the environment, checked once at start (the mail transport reads SMTP_URL and MAIL_FROM: mail/mailTransport.ts). */
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
  /** The first pause before an email that could not be sent is tried again. */
  mailRetryBaseMs: number;
}

export function loadAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  return {
    jwtPrivateKey: readVar(env, 'JWT_PRIVATE_KEY'),
    tokenTtlSeconds: readInt(env, 'ACCESS_TOKEN_TTL_SECONDS', 12 * 3600, 60, 30 * 24 * 3600),
    adminEmails: readVar(env, 'ADMIN_EMAILS'),
    limits: {
      registerPerIpPerHour: readInt(env, 'AUTH_REGISTER_PER_IP_PER_HOUR', 20, 1),
      loginPerIpPerMinute: readInt(env, 'AUTH_LOGIN_PER_IP_PER_MINUTE', 30, 1),
      loginPerEmailPer15Minutes: readInt(env, 'AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES', 10, 1),
      resetPerIpPerHour: readInt(env, 'AUTH_PASSWORD_RESET_PER_IP_PER_HOUR', 20, 1),
      resetPerEmailPerHour: readInt(env, 'AUTH_PASSWORD_RESET_PER_EMAIL_PER_HOUR', 3, 1),
      passwordChangePerUserPer15Minutes: readInt(env, 'AUTH_PASSWORD_CHANGE_PER_USER_PER_15_MINUTES', 10, 1),
      exportPerUserPer15Minutes: readInt(env, 'AUTH_ACCOUNT_EXPORT_PER_USER_PER_15_MINUTES', 5, 1),
    },
    mailRetryBaseMs: readInt(env, 'MAIL_RETRY_BASE_SECONDS', 60, 1, 3600) * 1000,
  };
}

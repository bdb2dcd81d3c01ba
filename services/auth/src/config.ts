import { Type, type Static } from 'typebox';
import { collectConfig, readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';
import { mailConfigFrom, MailVariables, type MailConfig } from '@leadforge/kit/mail';

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
  // Account emails (password reset, password changed, account deleted).
  ...MailVariables,
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
  mail: MailConfig;
}

/** Auth's configuration from its variables; `kit` gives the public address and whether production needs real providers. */
export function authConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { publicUrl: string; requireRealProviders: boolean }): AuthConfig {
  const vars = readVariables(AuthVariables, env, problems);
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
    mail: mailConfigFrom(vars, problems, kit),
  };
}

/** Auth's configuration alone, every problem thrown together. */
export function loadAuthConfig(env: NodeJS.ProcessEnv, kit: { publicUrl: string; requireRealProviders: boolean }): AuthConfig {
  return collectConfig((problems) => authConfigFrom(env, problems, kit));
}

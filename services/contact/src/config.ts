import { ConfigError, readInt, readVar } from '@leadforge/kit/config';

/** Google's published reCAPTCHA v2 test keys: every check passes, so never in production. */
export const GOOGLE_TEST_KEYS = {
  siteKey: '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI',
  secret: '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe',
} as const;

/** How the contact form tells people from robots. */
export type RobotCheckConfig =
  /** The SPA's built-in test check (no keys, outside production): it passes on this hostname. */
  | { provider: 'local'; hostname: string }
  | { provider: 'google'; siteKey: string; secret: string; testMode: boolean; url: string; expectedHostnames: string[] };

/** What the contact service reads from the environment, checked once at start. */
export interface ContactConfig {
  robotCheck: RobotCheckConfig;
  limits: { perIpPerHour: number };
}

/**
 * reCAPTCHA with the site's keys; outside production, Google's test keys or (with no keys) the
 * SPA's built-in test check. Production refuses both stand-ins.
 */
export function loadRobotCheckConfig(env: NodeJS.ProcessEnv, production: boolean, publicUrl: string): RobotCheckConfig {
  const hint = 'the reCAPTCHA v2 keys of this site';
  const siteKey = readVar(env, 'RECAPTCHA_SITE_KEY', { required: production, hint });
  const secret = readVar(env, 'RECAPTCHA_SECRET', { required: production, hint });
  const expectedHostnames = (readVar(env, 'RECAPTCHA_HOSTNAMES') ?? new URL(publicUrl).hostname)
    .split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);

  if (!siteKey || !secret) {
    if (siteKey || secret) throw new ConfigError(siteKey ? 'RECAPTCHA_SECRET' : 'RECAPTCHA_SITE_KEY', 'is required when the other reCAPTCHA key is set');
    return { provider: 'local', hostname: expectedHostnames[0] ?? 'localhost' };
  }
  const testKeys = siteKey === GOOGLE_TEST_KEYS.siteKey || secret === GOOGLE_TEST_KEYS.secret;
  if (production && testKeys) {
    throw new ConfigError(secret === GOOGLE_TEST_KEYS.secret ? 'RECAPTCHA_SECRET' : 'RECAPTCHA_SITE_KEY', "is Google's published test key, which passes every check; production needs this site's own keys");
  }
  const url = readVar(env, 'RECAPTCHA_VERIFY_URL', { default: 'https://www.google.com/recaptcha/api/siteverify', pattern: /^https?:\/\/[^\s]+$/, hint: 'an http(s) URL' })!;
  return { provider: 'google', siteKey, secret, testMode: testKeys, url, expectedHostnames };
}

/** `production`: no stand-in for a paid provider (the kit's requireRealProviders); `publicUrl`: the product's address. */
export function loadContactConfig(env: NodeJS.ProcessEnv, production: boolean, publicUrl: string): ContactConfig {
  return {
    robotCheck: loadRobotCheckConfig(env, production, publicUrl),
    limits: { perIpPerHour: readInt(env, 'CONTACT_PER_IP_PER_HOUR', 10, 1) },
  };
}

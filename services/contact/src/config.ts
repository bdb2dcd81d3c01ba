import { Type, type Static } from 'typebox';
import { collectConfig, readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';

/** Every variable the contact service reads besides the kit's. */
export const ContactVariables = Type.Object({
  RECAPTCHA_SITE_KEY: Variable.string({ description: 'the reCAPTCHA v2 site key of this site', defaultText: 'the SPA\'s built-in test check', production: true, example: 'recaptcha-site-key' }),
  RECAPTCHA_SECRET: Variable.string({ description: 'its secret', defaultText: 'unset', secret: true, production: true, example: 'recaptcha-secret' }),
  RECAPTCHA_HOSTNAMES: Variable.list({ description: 'the hostnames a passed check must name', defaultText: 'the host of `PUBLIC_URL`', lowerCase: true }),
  RECAPTCHA_VERIFY_URL: Variable.string({ description: 'reCAPTCHA\'s verify endpoint', default: 'https://www.google.com/recaptcha/api/siteverify', url: true }),
  CONTACT_PER_IP_PER_HOUR: Variable.integer({ description: 'contact messages per address per hour', default: 10, minimum: 1 }),
});
type ContactVariables = Static<typeof ContactVariables>;

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
function robotCheckConfigOf(vars: ContactVariables, production: boolean, publicUrl: string, problems: ConfigProblems): RobotCheckConfig {
  const siteKey = vars.RECAPTCHA_SITE_KEY;
  const secret = vars.RECAPTCHA_SECRET;
  const expectedHostnames = vars.RECAPTCHA_HOSTNAMES ?? [new URL(publicUrl).hostname.toLowerCase()];
  if (!siteKey || !secret) {
    const hint = 'the reCAPTCHA v2 keys of this site';
    if (production) {
      if (!siteKey) problems.add('RECAPTCHA_SITE_KEY', `is required (${hint})`);
      if (!secret) problems.add('RECAPTCHA_SECRET', `is required (${hint})`);
    } else if (siteKey || secret) {
      problems.add(siteKey ? 'RECAPTCHA_SECRET' : 'RECAPTCHA_SITE_KEY', 'is required when the other reCAPTCHA key is set');
    }
    return { provider: 'local', hostname: expectedHostnames[0] ?? 'localhost' };
  }
  const testKeys = siteKey === GOOGLE_TEST_KEYS.siteKey || secret === GOOGLE_TEST_KEYS.secret;
  if (production && testKeys) {
    problems.add(secret === GOOGLE_TEST_KEYS.secret ? 'RECAPTCHA_SECRET' : 'RECAPTCHA_SITE_KEY', "is Google's published test key, which passes every check; production needs this site's own keys");
  }
  return { provider: 'google', siteKey, secret, testMode: testKeys, url: vars.RECAPTCHA_VERIFY_URL, expectedHostnames };
}

/** The robot check's part alone, every problem thrown together. */
export function loadRobotCheckConfig(env: NodeJS.ProcessEnv, production: boolean, publicUrl: string): RobotCheckConfig {
  return collectConfig((problems) => robotCheckConfigOf(readVariables(ContactVariables, env, problems), production, publicUrl, problems));
}

/** The contact service's configuration; `kit.requireRealProviders`: no stand-in for a paid provider. */
export function contactConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { requireRealProviders: boolean; publicUrl: string }): ContactConfig {
  const vars = readVariables(ContactVariables, env, problems);
  return {
    robotCheck: robotCheckConfigOf(vars, kit.requireRealProviders, kit.publicUrl, problems),
    limits: { perIpPerHour: vars.CONTACT_PER_IP_PER_HOUR },
  };
}

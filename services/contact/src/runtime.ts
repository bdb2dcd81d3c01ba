import type { ServiceContext } from '@leadforge/kit/service';
import { ConfigError, readInt, readVar } from '@leadforge/kit/config';
import { GOOGLE_TEST_KEYS, localTestVerifier, siteVerify, type TokenVerifier } from './domain/robotCheck.ts';

export interface RobotCheck {
  provider: 'google' | 'local';
  siteKey: string;
  testMode: boolean;
  verifier: TokenVerifier;
}

/** What the contact service's routes share, built once per start. */
export interface ContactRuntime {
  ctx: ServiceContext;
  robotCheck: RobotCheck;
  limits: { perIpPerHour: number };
}

export function buildRuntime(ctx: ServiceContext): ContactRuntime {
  return {
    ctx,
    robotCheck: robotCheckFrom(ctx.env, ctx.config.requireRealProviders, ctx.config.publicUrl),
    limits: { perIpPerHour: readInt(ctx.env, 'CONTACT_PER_IP_PER_HOUR', 10, 1) },
  };
}

/**
 * reCAPTCHA with the site's keys; outside production, Google's test keys or (with no keys) the
 * SPA's built-in test check. Production refuses both stand-ins.
 */
export function robotCheckFrom(env: NodeJS.ProcessEnv, production: boolean, publicUrl: string): RobotCheck {
  const hint = 'the reCAPTCHA v2 keys of this site';
  const siteKey = readVar(env, 'RECAPTCHA_SITE_KEY', { required: production, hint });
  const secret = readVar(env, 'RECAPTCHA_SECRET', { required: production, hint });
  const expectedHostnames = (readVar(env, 'RECAPTCHA_HOSTNAMES') ?? new URL(publicUrl).hostname)
    .split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);

  if (!siteKey || !secret) {
    if (siteKey || secret) throw new ConfigError(siteKey ? 'RECAPTCHA_SECRET' : 'RECAPTCHA_SITE_KEY', 'is required when the other reCAPTCHA key is set');
    return { provider: 'local', siteKey: '', testMode: true, verifier: localTestVerifier(expectedHostnames[0] ?? 'localhost') };
  }
  const testKeys = siteKey === GOOGLE_TEST_KEYS.siteKey || secret === GOOGLE_TEST_KEYS.secret;
  if (production && testKeys) {
    throw new ConfigError(secret === GOOGLE_TEST_KEYS.secret ? 'RECAPTCHA_SECRET' : 'RECAPTCHA_SITE_KEY', "is Google's published test key, which passes every check; production needs this site's own keys");
  }
  const url = readVar(env, 'RECAPTCHA_VERIFY_URL', { default: 'https://www.google.com/recaptcha/api/siteverify', pattern: /^https?:\/\/[^\s]+$/, hint: 'an http(s) URL' })!;
  return { provider: 'google', siteKey, testMode: testKeys, verifier: siteVerify({ url, secret, expectedHostnames }) };
}

import { describe, expect, it } from 'vitest';
import { robotCheckFrom } from '../src/runtime.ts';
import { GOOGLE_TEST_KEYS } from '../src/config.ts';

const PUBLIC_URL = 'https://leadforge.example';

describe('which robot check the contact service uses', () => {
  it('draws the built-in test check in local mode without keys', () => {
    expect(robotCheckFrom({}, false, PUBLIC_URL)).toMatchObject({ provider: 'local', siteKey: '', testMode: true });
  });

  it('labels Google\'s published test keys as test mode outside production', () => {
    const check = robotCheckFrom({ RECAPTCHA_SITE_KEY: GOOGLE_TEST_KEYS.siteKey, RECAPTCHA_SECRET: GOOGLE_TEST_KEYS.secret }, false, PUBLIC_URL);
    expect(check).toMatchObject({ provider: 'google', siteKey: GOOGLE_TEST_KEYS.siteKey, testMode: true });
  });

  it('refuses to start in production without keys or with Google\'s test keys', () => {
    expect(() => robotCheckFrom({}, true, PUBLIC_URL)).toThrow('Configuration error: RECAPTCHA_SITE_KEY is required (the reCAPTCHA v2 keys of this site)');
    expect(() => robotCheckFrom({ RECAPTCHA_SITE_KEY: GOOGLE_TEST_KEYS.siteKey, RECAPTCHA_SECRET: GOOGLE_TEST_KEYS.secret }, true, PUBLIC_URL))
      .toThrow("Configuration error: RECAPTCHA_SECRET is Google's published test key, which passes every check; production needs this site's own keys");
    expect(robotCheckFrom({ RECAPTCHA_SITE_KEY: 'real-site-key', RECAPTCHA_SECRET: 'real-secret' }, true, PUBLIC_URL)).toMatchObject({ provider: 'google', testMode: false });
  });

  it('refuses half a key pair and a verify URL that is not http(s)', () => {
    expect(() => robotCheckFrom({ RECAPTCHA_SITE_KEY: 'k' }, false, PUBLIC_URL)).toThrow('RECAPTCHA_SECRET is required when the other reCAPTCHA key is set');
    expect(() => robotCheckFrom({ RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SECRET: 's', RECAPTCHA_VERIFY_URL: 'ftp://x' }, false, PUBLIC_URL)).toThrow('RECAPTCHA_VERIFY_URL has a bad value');
  });
});

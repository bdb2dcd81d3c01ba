import { describe, expect, it } from 'vitest';
import { loadKitConfig, standInsAllowed } from '../src/config/kitConfig.ts';
import { readBool, readInt } from '../src/config/environment.ts';

describe('configuration', () => {
  it('names the variable that is missing in production', () => {
    expect(() => loadKitConfig('auth', { NODE_ENV: 'production' })).toThrow('Configuration error: INTERNAL_TOKEN is required');
    expect(() => loadKitConfig('auth', { NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32) }))
      .toThrow('Configuration error: AUTH_DATABASE_URL or DATABASE_URL is required in production');
  });
  it('names the variable with a bad value', () => {
    expect(() => loadKitConfig('auth', { AUTH_URL: 'not a url' })).toThrow('AUTH_URL has a bad value "not a url"');
    expect(() => readInt({ PORT: 'eighty' }, 'PORT', 8080, 0, 65535)).toThrow('PORT must be an integer from 0 to 65535, got "eighty"');
    expect(() => readBool({ FLAG: 'maybe' }, 'FLAG', false)).toThrow('FLAG must be true or false, got "maybe"');
  });
  it('runs locally with no variables at all', () => {
    const config = loadKitConfig('auth', {});
    expect(config).toMatchObject({ production: false, dataDir: './.data', host: '127.0.0.1', databaseUrl: undefined, kafkaBrokers: undefined });
    expect(config.internalToken.length).toBeGreaterThanOrEqual(24);
  });
  it('prefers a service’s own database URL', () => {
    expect(loadKitConfig('auth', { DATABASE_URL: 'postgres://a/b', AUTH_DATABASE_URL: 'postgres://c/d' }).databaseUrl).toBe('postgres://c/d');
  });
  it('lets a production-shaped run on loopback use the labelled stand-ins, and nothing else', () => {
    const production = { NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32), DATABASE_URL: 'postgres://a/b' };
    expect(loadKitConfig('auth', production).requireRealProviders).toBe(true);
    expect(loadKitConfig('auth', { ...production, LEADFORGE_STAND_INS: 'true', PUBLIC_URL: 'http://localhost:8080' }).requireRealProviders).toBe(false);
    expect(loadKitConfig('auth', { ...production, LEADFORGE_STAND_INS: 'true', PUBLIC_URL: 'http://127.0.0.1:9000' }).requireRealProviders).toBe(false);
    expect(() => loadKitConfig('auth', { ...production, LEADFORGE_STAND_INS: 'true', PUBLIC_URL: 'https://leads.example.com' }))
      .toThrow('LEADFORGE_STAND_INS is only allowed while PUBLIC_URL is a loopback address (it is https://leads.example.com)');
    expect(standInsAllowed({ PUBLIC_URL: 'https://leads.example.com' })).toBe(false);
    expect(loadKitConfig('auth', {}).requireRealProviders).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { loadKitConfig, standInsAllowed } from '../src/config/kitConfig.ts';
import { Type } from 'typebox';
import { loadVariables, readVariables, Variable } from '../src/config/environment.ts';
import { serviceConfigOf } from '../src/service/service.ts';

describe('configuration', () => {
  it('names the variable that is missing in production', () => {
    expect(() => loadKitConfig('auth', { NODE_ENV: 'production' })).toThrow('Configuration error: INTERNAL_TOKEN is required');
    expect(() => loadKitConfig('auth', { NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32) }))
      .toThrow('Configuration error: AUTH_DATABASE_URL or DATABASE_URL is required in production');
  });
  it('names the variable with a bad value', () => {
    expect(() => loadKitConfig('auth', { AUTH_URL: 'not a url' })).toThrow('AUTH_URL has a bad value "not a url"');
    expect(() => loadKitConfig('auth', { PORT: 'eighty' })).toThrow('PORT must be an integer from 0 to 65535, got "eighty"');
    expect(() => loadKitConfig('auth', { LEADFORGE_STAND_INS: 'maybe' })).toThrow('LEADFORGE_STAND_INS must be true or false, got "maybe"');
  });
  it('names every bad variable at once, each with what is wrong', () => {
    const env = { NODE_ENV: 'production', SHUTDOWN_TIMEOUT_SECONDS: '0', REDIS_URL: 'localhost:6379', KAFKA_BROKERS: 'kafka:9092', KAFKA_SASL_MECHANISM: 'plain' };
    let message = '';
    try {
      loadKitConfig('billing', env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Configuration error: REDIS_URL has a bad value "localhost:6379" (a redis:// URL)',
      'Configuration error: SHUTDOWN_TIMEOUT_SECONDS must be an integer from 1 to 3600, got "0"',
      'Configuration error: INTERNAL_TOKEN is required (the shared secret services use on /internal routes)',
      'Configuration error: BILLING_DATABASE_URL or DATABASE_URL is required in production',
      'Configuration error: KAFKA_SASL_USERNAME is required (the user for plain)',
      'Configuration error: KAFKA_SASL_PASSWORD is required (the password for plain)',
    ]);
  });
  it('names the kit\'s and the service\'s problems together when a service starts', () => {
    const ServiceVariables = Type.Object({ LIMIT: Variable.integer({ description: 'a limit', default: 1, minimum: 1 }) });
    const def = { name: 'auth' as const, config: (env: NodeJS.ProcessEnv, problems: Parameters<typeof readVariables>[2]) => readVariables(ServiceVariables, env, problems) };
    expect(serviceConfigOf(def, { LIMIT: '5' }).serviceConfig).toEqual({ LIMIT: 5 });
    expect(() => serviceConfigOf(def, { PORT: 'x', LIMIT: '0' })).toThrow([
      'Configuration error: PORT must be an integer from 0 to 65535, got "x"',
      'Configuration error: LIMIT must be an integer of at least 1, got "0"',
    ].join('\n'));
  });
  it('reads integers, booleans, lists, choices and base URLs as declared', () => {
    const schema = Type.Object({
      COUNT: Variable.integer({ description: 'a count', default: 3, minimum: 1, maximum: 9 }),
      FLAG: Variable.boolean({ description: 'a flag', default: false }),
      NAMES: Variable.list({ description: 'names', lowerCase: true }),
      MODE: Variable.choice(['one', 'two'] as const, { description: 'a mode' }),
      BASE: Variable.string({ description: 'a base URL', base: true, default: 'https://example.com/' }),
    });
    expect(loadVariables(schema, {})).toEqual({ COUNT: 3, FLAG: false, NAMES: undefined, MODE: undefined, BASE: 'https://example.com/' });
    expect(loadVariables(schema, { COUNT: '9', FLAG: 'yes', NAMES: ' A, b ,,', MODE: 'TWO', BASE: 'http://x.test/api/' }))
      .toEqual({ COUNT: 9, FLAG: true, NAMES: ['a', 'b'], MODE: 'two', BASE: 'http://x.test/api' });
    expect(() => loadVariables(schema, { COUNT: '1.5', FLAG: 'maybe', MODE: 'three', BASE: 'x.test' })).toThrow([
      'Configuration error: COUNT must be an integer from 1 to 9, got "1.5"',
      'Configuration error: FLAG must be true or false, got "maybe"',
      'Configuration error: MODE must be one of one, two, got "three"',
      'Configuration error: BASE has a bad value "x.test" (an http(s) URL)',
    ].join('\n'));
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

import { describe, expect, it } from 'vitest';
import { ConfigError } from '@leadforge/kit/config';
import { loadGatewayConfig } from '../src/config.ts';

describe('the gateway configuration', () => {
  it('reads its web app and the kit\'s variables it uses', () => {
    expect(loadGatewayConfig({ WEB_DIST: '/srv/web', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '3', INTERNAL_TOKEN: 'a-token' }))
      .toEqual({ webDist: '/srv/web', logLevel: 'info', shutdownTimeoutMs: 3000, internalToken: 'a-token' });
    expect(loadGatewayConfig({})).toMatchObject({ webDist: undefined, logLevel: 'warn', shutdownTimeoutMs: 20_000 });
  });

  it('names every bad variable at once', () => {
    const read = () => loadGatewayConfig({ NODE_ENV: 'production', SHUTDOWN_TIMEOUT_SECONDS: '0' });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(/SHUTDOWN_TIMEOUT_SECONDS must be an integer from 1 to 3600[\s\S]*INTERNAL_TOKEN is required/);
  });
});

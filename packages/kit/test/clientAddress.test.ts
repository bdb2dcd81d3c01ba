import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PROOF_HEADER } from '../src/http/clientAddress.ts';
import { startServiceForTest } from '@leadforge/testing';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';

const whoAmI: ServiceDefinition = {
  name: 'contact',
  async routes(app) {
    app.get('/who', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  },
};

describe('a service believes X-Forwarded-For only from the gateway', () => {
  let svc: RunningService;
  beforeAll(async () => { svc = await startServiceForTest(whoAmI, { kind: 'pglite' }); });
  afterAll(async () => svc?.stop());

  const who = async (headers: Record<string, string>) => (await fetch(`${svc.url}/who`, { headers })).json();

  it('ignores the headers of a caller that reaches the service port directly', async () => {
    expect(await who({ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' })).toEqual({ ip: '127.0.0.1', protocol: 'http' });
    expect(await who({ 'x-forwarded-for': '203.0.113.9', [GATEWAY_PROOF_HEADER]: 'a guess' })).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });

  it('uses the address the gateway forwards when the gateway proves itself', async () => {
    expect(await who({ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https', [GATEWAY_PROOF_HEADER]: svc.ctx.config.internalToken }))
      .toEqual({ ip: '203.0.113.9', protocol: 'https' });
  });
});

import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ServiceDefinition } from '@leadforge/kit/service';
import { waitFor } from '@leadforge/testing';
import { freePort } from '../src/freePort.ts';
import { startStack } from '../src/embedded/startStack.ts';

const env = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: ':memory:',
  DATABASE_URL: '',
  TEST_DATABASE_URL: '',
  KAFKA_BROKERS: '',
  REDIS_URL: '',
  LOG_LEVEL: 'silent',
  ...extra,
});

const answers = (port: number) => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);

const until = (probe: () => Promise<boolean>, timeoutMs = 150_000) => waitFor(probe, { timeoutMs, what: 'the service to answer' });

describe('npm start never leaves a half-started product', () => {
  it('a service that fails to start stops the services that did', async () => {
    const contactPort = await freePort();
    const contact: ServiceDefinition = { name: 'contact', routes: async () => {} };
    // Fails only once contact serves, so contact is certainly up when the failure comes.
    const admin: ServiceDefinition = {
      name: 'admin',
      routes: async () => {
        await until(() => answers(contactPort));
        throw new Error('admin refuses to start');
      },
    };
    await expect(startStack({ port: 0, env: env({ CONTACT_PORT: String(contactPort) }), services: [contact, admin] }))
      .rejects.toThrow('the admin service did not start: admin refuses to start');
    expect(await answers(contactPort)).toBe(false);
  }, 180_000);

  it('a gateway that cannot listen stops every service', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const gatewayPort = (taken.address() as net.AddressInfo).port;
    const contactPort = await freePort();
    try {
      await expect(startStack({ port: gatewayPort, env: env({ CONTACT_PORT: String(contactPort), HOST: '127.0.0.1' }), services: [{ name: 'contact', routes: async () => {} }] }))
        .rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(await answers(contactPort)).toBe(false);
    } finally {
      taken.close();
    }
  }, 120_000);
});

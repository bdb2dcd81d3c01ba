import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressProblem } from '../src/outbound/networkGuard.ts';
import { OutboundClient, type OutboundClientOptions } from '../src/outbound/outboundClient.ts';
import type { OutboundError } from '../src/outbound/outboundErrors.ts';
import { memoryProxyQuota } from '../src/quota/proxyQuota.ts';
import type { UsageEntry } from '../src/usage/usageRecorder.ts';
import { FAULT_HOSTS, PUBLIC_LOOKING_ADDRESS, startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';

const FORBIDDEN = [
  ['127.0.0.1', 'loopback'], ['127.1.2.3', 'loopback'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'],
  ['10.0.0.5', 'private'], ['172.16.3.4', 'private'], ['192.168.1.1', 'private'],
  ['169.254.10.10', 'linkLocal'], ['fe80::1', 'linkLocal'], ['fd12:3456::1', 'uniqueLocal'],
  ['100.64.0.1', 'carrierGradeNat'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['224.0.0.251', 'multicast'],
  ['64:ff9b::7f00:1', 'rfc6052'], ['2002:7f00:1::', '6to4'], ['192.0.2.10', 'reserved'],
] as const;
const METADATA = ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2'];

describe('the SSRF guard: which addresses may be fetched', () => {
  it.each(FORBIDDEN)('refuses %s (%s)', (address, range) => {
    expect(addressProblem(address, false)).toContain(range);
  });

  it.each(METADATA)('refuses the cloud metadata address %s even when private networks are allowed', (address) => {
    expect(addressProblem(address, false)).toBe('is a cloud metadata address');
    expect(addressProblem(address, true)).toBe('is a cloud metadata address');
  });

  it('allows public unicast addresses, and private ones only when told to', () => {
    for (const address of ['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111']) expect(addressProblem(address, false)).toBeUndefined();
    expect(addressProblem('127.0.0.1', true)).toBeUndefined();
    expect(addressProblem('10.0.0.5', true)).toBeUndefined();
  });
});

describe('the SSRF guard in the outbound client', () => {
  let web: FixtureWeb;
  const clients: OutboundClient[] = [];
  const usage: UsageEntry[] = [];

  const client = (overrides: Partial<OutboundClientOptions> = {}) => {
    const made = new OutboundClient({
      userAgent: 'LeadforgeBot/1.0', allowPrivateNetworks: false, lookup: web.publicLookup, route: web.route,
      globalConcurrency: 8, perHostConcurrency: 2, perHostDelayMs: 0, maxCrawlDelayMs: 1000, connectTimeoutMs: 1000,
      totalTimeoutMs: 3000, maxResponseBytes: 1024 * 1024, maxRetries: 1, maxRetryAfterMs: 2000, retryBaseMs: 20,
      quota: memoryProxyQuota(), usage: { record: (entry) => usage.push(entry) }, ...overrides,
    });
    clients.push(made);
    return made;
  };
  const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a refusal'); }, (error: OutboundError) => error);

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 3, proxyCredentials: { username: 'user', password: 'secret' } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await web?.close();
  });

  it('fetches a site whose name resolves to a public address', async () => {
    const page = await client().fetchPage('http://site-000.fixture.test/contact');
    expect(page.html).toContain('mailto:info@site-000.fixture.test');
  });

  it.each([
    'http://127.0.0.1/', 'http://127.0.0.1:22/', 'http://localhost.:80/', 'http://[::1]/', 'http://[::ffff:7f00:1]/', 'http://2130706433/',
    'http://0x7f.0.0.1/', 'http://10.0.0.1/', 'http://192.168.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/',
    'http://100.100.100.200/', 'http://0.0.0.0/', 'https://172.16.0.1/',
  ])('refuses %s, for pages and admin scrapes alike', async (url) => {
    const made = client({ lookup: async (host) => (host.startsWith('localhost') ? [{ address: '127.0.0.1', family: 4 }] : web.publicLookup(host)) });
    for (const attempt of [made.fetchPage(url), made.scrape(url)]) {
      const error = await failure(attempt);
      expect(['blocked_address', 'bad_url']).toContain(error.code);
      if (error.code === 'bad_url') expect(error.message).toMatch(/not a valid URL/i);
    }
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:6379/_INFO', 'data:text/html,<p>x</p>', 'javascript:alert(1)', 'http://user:pw@site-000.fixture.test/'])('refuses %s as not fetchable', async (url) => {
    expect((await failure(client().scrape(url))).code).toBe('bad_url');
  });

  it('refuses a name that resolves to a private address, or to a private one among public ones', async () => {
    const made = client({
      lookup: async (host) => host === 'internal.fixture.test'
        ? [{ address: '10.1.2.3', family: 4 }]
        : [{ address: PUBLIC_LOOKING_ADDRESS, family: 4 }, { address: '127.0.0.1', family: 4 }],
    });
    expect((await failure(made.fetchPage('http://internal.fixture.test/'))).message).toContain('10.1.2.3 is in the private range');
    expect((await failure(made.fetchPage('http://mixed.fixture.test/'))).message).toContain('127.0.0.1 is in the loopback range');
  });

  it.each([
    [FAULT_HOSTS.redirectLoopback, 'loopback'],
    [FAULT_HOSTS.redirectMetadata, 'cloud metadata'],
    [FAULT_HOSTS.redirectPrivate, 'private'],
  ])('refuses the redirect of %s to a %s address', async (host, what) => {
    const error = await failure(client().fetchPage(`http://${host}/`));
    expect(error.code).toBe('blocked_address');
    expect(error.message).toContain(what);
  });

  it('refuses private targets and redirects through the proxy too, before anything is sent', async () => {
    const made = client({ proxyUrl: web.urls.proxy });
    const before = { ...web.proxied };
    expect((await failure(made.scrape('http://127.0.0.1:6379/'))).code).toBe('blocked_address');
    expect((await failure(made.scrape('http://169.254.169.254/latest/meta-data/'))).code).toBe('blocked_address');
    expect(web.proxied.connects).toBe(before.connects);
    expect((await failure(made.fetchPage(`http://${FAULT_HOSTS.redirectMetadata}/`))).message).toContain('cloud metadata');
    const page = await made.fetchPage('http://site-001.fixture.test/');
    expect(page.status).toBe(200);
    expect(web.proxied.connects).toBeGreaterThan(before.connects);
  });

  it('lets local test sites through only when private networks are allowed, never the metadata address', async () => {
    const made = client({ allowPrivateNetworks: true, lookup: web.loopbackLookup });
    expect((await made.fetchPage('http://site-002.fixture.test/')).status).toBe(200);
    const metadata = await failure(made.fetchPage(`http://${FAULT_HOSTS.redirectMetadata}/`));
    expect(metadata.message).toContain('cloud metadata');
  });

  it('does not count refused connections as proxy usage', async () => {
    const count = usage.length;
    await failure(client().scrape('http://10.9.9.9/'));
    expect(usage.length).toBe(count);
  });
});

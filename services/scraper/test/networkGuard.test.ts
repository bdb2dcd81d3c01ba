import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressProblem } from '@leadforge/kit/outbound';
import { OutboundClient, type OutboundClientOptions } from '../src/outbound/outboundClient.ts';
import type { OutboundError } from '@leadforge/kit/outbound';
import { memoryProxyQuota } from '../src/outbound/proxyQuota.ts';
import type { UsageEntry } from '../src/outbound/outboundClient.ts';
import { FAULT_HOSTS, PUBLIC_LOOKING_ADDRESS, startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';

const FORBIDDEN = [
  ['127.0.0.1', 'loopback'], ['127.1.2.3', 'loopback'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'],
  ['10.0.0.5', 'private'], ['172.16.3.4', 'private'], ['192.168.1.1', 'private'],
  ['169.254.10.10', 'linkLocal'], ['fe80::1', 'linkLocal'], ['fd12:3456::1', 'uniqueLocal'],
  ['100.64.0.1', 'carrierGradeNat'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['224.0.0.251', 'multicast'],
  ['192.0.2.10', 'reserved'], ['::7f00:1', 'embeds 127.0.0.1'], ['::808:808', 'IPv4-compatible'], ['64:ff9b:1::a00:1', 'NAT64 local-use'],
  ['64:ff9b::808:808', 'rfc6052'], ['2002:808:808::', '6to4'], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'embeds 192.0.2.45'],
] as const;
const METADATA = ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2'];

/** The IPv6 forms that carry an IPv4 address: IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4 (2002::/16). */
function embeddings(ipv4: string): string[] {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return [`::${high}:${low}`, `64:ff9b::${high}:${low}`, `2002:${high}:${low}::`];
}
const REFUSED_IPV4 = ['127.0.0.1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '100.64.0.1', '0.1.2.3', '224.0.0.251', '192.0.2.10', '169.254.169.254', '169.254.169.253', '100.100.100.200'];

describe('the SSRF guard: which addresses may be fetched', () => {
  it.each(FORBIDDEN)('refuses %s (%s)', (address, range) => {
    expect(addressProblem(address, false)).toContain(range);
  });

  it.each(METADATA)('refuses the cloud metadata address %s even when private networks are allowed', (address) => {
    expect(addressProblem(address, false)).toBe('is a cloud metadata address');
    expect(addressProblem(address, true)).toBe('is a cloud metadata address');
  });

  it.each(REFUSED_IPV4)('refuses the IPv4-compatible, NAT64 and 6to4 forms of %s', (ipv4) => {
    for (const form of embeddings(ipv4)) expect({ form, problem: addressProblem(form, false) }).toEqual({ form, problem: expect.stringContaining(`embeds ${ipv4}`) });
  });

  it.each(['169.254.169.253', '169.254.0.1', '169.254.255.254', 'fe80::1', ...embeddings('169.254.169.253'), ...embeddings('169.254.169.254')])(
    'refuses the link-local address %s even when private networks are allowed',
    (address) => {
      expect(addressProblem(address, true)).toMatch(/linkLocal|cloud metadata/);
    },
  );

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

  // Connection tests name loopback forms only: a guard that failed must never send a packet off this
  // machine. Private, link-local and metadata addresses are covered by the classification above.
  it.each([
    'http://127.0.0.1/', 'http://127.0.0.1:22/', 'http://localhost.:80/', 'http://[::1]/', 'http://[::ffff:7f00:1]/', 'http://2130706433/',
    'http://0x7f.0.0.1/', 'http://127.9.9.9/', 'http://[::ffff:127.0.0.2]/', 'https://0177.0.0.1/',
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
        ? [{ address: '127.0.0.7', family: 4 }]
        : [{ address: PUBLIC_LOOKING_ADDRESS, family: 4 }, { address: '127.0.0.1', family: 4 }],
    });
    expect((await failure(made.fetchPage('http://internal.fixture.test/'))).message).toContain('127.0.0.7 is in the loopback range');
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
    expect((await failure(made.scrape('http://[::1]:6379/'))).code).toBe('blocked_address');
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
    await failure(client().scrape('http://127.9.9.9/'));
    expect(usage.length).toBe(count);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailDomainLookup, mailResolverFor } from '../../src/verdicts/dnsMailDomainCheck.ts';
import { loadScraperConfig } from '../../src/config.ts';
import { createCatchAllProbe, startingCatchAllCheck, withCatchAllCheck, type CatchAllProbeOptions } from '../../src/verdicts/catchAllProbe.ts';
import { judgeEmail } from '../../src/verdicts/emailVerdict.ts';
import { startLoopbackDns } from '../support/loopbackDns.ts';
import { startLoopbackSmtp } from '../support/loopbackSmtp.ts';

// accepts-all.de takes mail for anyone; strict.de refuses unknown recipients; silent.de never answers RCPT.
// The first two share one mail host, as domains at one hosting provider do; the best MX (lowest preference) is asked.
const MX: Record<string, string[]> = { 'accepts-all.de': ['mx.hoster.test', 'backup.hoster.test'], 'strict.de': ['mx.hoster.test'], 'silent.de': ['mx.silent.test'] };
const HOSTS: Record<string, string[]> = { 'mx.hoster.test': ['127.0.0.1'], 'mx.silent.test': ['127.0.0.1'] };

describe('catch-all probe, against a name server and a mail server on loopback', () => {
  let dns: Awaited<ReturnType<typeof startLoopbackDns>>;
  let smtp: Awaited<ReturnType<typeof startLoopbackSmtp>>;
  beforeAll(async () => {
    dns = await startLoopbackDns((domain) => MX[domain], (name) => HOSTS[name]);
    smtp = await startLoopbackSmtp((recipient) => {
      const domain = recipient.split('@')[1];
      if (domain === 'accepts-all.de') return 250;
      if (domain === 'silent.de') return 'silent';
      return recipient.startsWith('anna@') ? 250 : 550;
    });
  });
  afterAll(async () => {
    await smtp?.close();
    await dns?.close();
  });

  function probeOptions(overrides: Partial<CatchAllProbeOptions> = {}): CatchAllProbeOptions {
    const resolver = mailResolverFor([dns.address], 1000);
    return {
      resolveMx: (domain) => resolver.resolveMx(domain),
      lookup: async (host) => (await resolver.resolve4(host)).map((address) => ({ address, family: 4 as const })),
      allowPrivateNetworks: true,
      port: smtp.port,
      timeoutMs: 1500,
      heloName: 'probe.test',
      sender: '',
      ...overrides,
    };
  }

  it('marks a catch-all domain risky and keeps a strict one valid, probing each domain once', async () => {
    const before = smtp.connections;
    const resolver = mailResolverFor([dns.address], 1000);
    const lookup = withCatchAllCheck(createMailDomainLookup(resolver, { timeoutMs: 1000 }), createCatchAllProbe(probeOptions()));
    const [first, second, strict] = await Promise.all([
      judgeEmail('anna@accepts-all.de', lookup),
      judgeEmail('ben@accepts-all.de', lookup),
      judgeEmail('anna@strict.de', lookup),
    ]);
    expect(first).toEqual({ status: 'risky', type: 'personal' });
    expect(second).toEqual({ status: 'risky', type: 'personal' });
    expect(strict).toEqual({ status: 'valid', type: 'personal' });
    expect(await judgeEmail('carla@accepts-all.de', lookup)).toEqual({ status: 'risky', type: 'personal' });
    // One probe per domain, never asking about the real address, one connection at a time to the shared MX host.
    expect(smtp.connections - before).toBe(2);
    const asked = smtp.recipients.slice(-2);
    expect(asked.every((recipient) => /^[0-9a-f]{24}-no-such-mailbox@(accepts-all|strict)\.de$/.test(recipient))).toBe(true);
    expect(smtp.maxOpen).toBe(1);
  });

  it('starts the probe from the crawl\'s keep-or-drop check, so the verdict finds it done', async () => {
    const before = smtp.connections;
    const resolver = mailResolverFor([dns.address], 1000);
    const mx = createMailDomainLookup(resolver, { timeoutMs: 1000 });
    const probe = createCatchAllProbe(probeOptions());
    expect(await startingCatchAllCheck(mx, probe)('accepts-all.de')).toBe('accepts');
    expect(await judgeEmail('anna@accepts-all.de', withCatchAllCheck(mx, probe))).toEqual({ status: 'risky', type: 'personal' });
    expect(smtp.connections - before).toBe(1);
  });

  it('leaves the verdict unchanged when the server does not answer in time, or nothing listens', async () => {
    const resolver = mailResolverFor([dns.address], 1000);
    const mx = createMailDomainLookup(resolver, { timeoutMs: 1000 });
    const probe = createCatchAllProbe(probeOptions({ timeoutMs: 300 }));
    // A server that never answers: an answer at all is the probe giving up (waiting on would meet the test's timeout).
    expect(await probe('silent.de')).toBe('unknown');
    expect(await judgeEmail('anna@silent.de', withCatchAllCheck(mx, probe))).toEqual({ status: 'valid', type: 'personal' });
    const closedPort = createCatchAllProbe(probeOptions({ port: 1 }));
    expect(await closedPort('accepts-all.de')).toBe('unknown');
  });

  it('refuses an MX host on a private address unless private networks are allowed', async () => {
    const before = smtp.connections;
    const guarded = createCatchAllProbe(probeOptions({ allowPrivateNetworks: false }));
    expect(await guarded('accepts-all.de')).toBe('unknown');
    expect(smtp.connections).toBe(before);
  });
});

describe('catch-all settings', () => {
  it('follow the MX check by default, and refuse a probe sender that is not an address', () => {
    expect(loadScraperConfig({}).emailCatchAllCheck).toBe(true);
    expect(loadScraperConfig({ EMAIL_MX_CHECK: 'false' }).emailCatchAllCheck).toBe(false);
    expect(loadScraperConfig({ EMAIL_CATCH_ALL_CHECK: 'false' }).emailCatchAllCheck).toBe(false);
    const config = loadScraperConfig({ EMAIL_SMTP_PROBE_PORT: '2525', EMAIL_SMTP_PROBE_SENDER: 'probe@leadforge.example' });
    expect([config.emailSmtpProbePort, config.emailSmtpProbeTimeoutMs, config.emailSmtpProbeSender]).toEqual([2525, 3000, 'probe@leadforge.example']);
    expect(loadScraperConfig({}).emailSmtpProbeSender).toBe('');
    expect(() => loadScraperConfig({ EMAIL_SMTP_PROBE_SENDER: 'a@b.de>\r\nDATA' })).toThrow(/EMAIL_SMTP_PROBE_SENDER/);
    expect(() => loadScraperConfig({ EMAIL_SMTP_PROBE_PORT: '0' })).toThrow(/EMAIL_SMTP_PROBE_PORT/);
  });
});

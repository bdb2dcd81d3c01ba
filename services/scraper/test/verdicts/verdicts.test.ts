import { describe, expect, it } from 'vitest';
import { createMailDomainLookup, type MailResolver } from '../../src/verdicts/dnsMailDomainCheck.ts';
import { createEmailVerifier } from '../../src/verdicts/emailVerdict.ts';
import { judgePhone } from '../../src/verdicts/phoneVerdict.ts';

const noRecord = () => Object.assign(new Error('no record'), { code: 'ENOTFOUND' });

/** A resolver with a fixed zone, on no network: MX and A records by domain. */
function zoneResolver(zone: Record<string, { mx?: string[]; a?: string[] }>): MailResolver {
  return {
    async resolveMx(domain) {
      const mx = zone[domain]?.mx;
      if (!mx) throw noRecord();
      return mx.map((exchange, priority) => ({ exchange, priority }));
    },
    async resolve4(domain) {
      const a = zone[domain]?.a;
      if (!a) throw noRecord();
      return a;
    },
  };
}

describe('email verdicts without SMTP: syntax, type and the MX look-up', () => {
  const mailHosts = createMailDomainLookup(zoneResolver({
    'bakery.de': { mx: ['mx2.bakery.de', 'mx1.bakery.de'] },
    'gmail.com': { mx: ['gmail-smtp-in.l.google.com'] },
    'mailinator.com': { mx: ['mail.mailinator.com'] },
    'a-record-only.de': { a: ['192.0.2.1'] },
    'nullmx.de': { mx: ['.'] },
  }));
  const verify = createEmailVerifier({ mailHosts });

  it.each([
    ['anna.schmidt@bakery.de', 'unknown', 'personal'],
    ['info@bakery.de', 'unknown', 'role'],
    ['kontakt@bakery.de', 'unknown', 'role'],
    ['anna.schmidt@gmail.com', 'unknown', 'free_mail'],
    ['anna@a-record-only.de', 'unknown', 'personal'],
    ['anna@mailinator.com', 'unknown', 'disposable'],
    ['anna@no-such-domain.de', 'undeliverable', 'personal'],
    ['anna@nullmx.de', 'undeliverable', 'personal'],
    ['not an address', 'undeliverable', 'personal'],
  ])('%s is %s (%s): a mailbox is never guessed without asking its server', async (email, deliverability, type) => {
    expect(await verify(email)).toMatchObject({ deliverability, type, checked_at: expect.any(String) });
  });

  it('names the best mail host as evidence, the domain itself for an address record only', async () => {
    expect(await mailHosts('bakery.de')).toEqual({ status: 'accepts', hosts: ['mx2.bakery.de', 'mx1.bakery.de'] });
    expect(await verify('anna@a-record-only.de')).toMatchObject({ mx_host: 'a-record-only.de' });
  });

  it('is unknown with the MX check off, and when the resolver cannot answer in time', async () => {
    expect(await createEmailVerifier({})('anna.schmidt@bakery.de')).toMatchObject({ deliverability: 'unknown', type: 'personal' });
    const silent = createMailDomainLookup({ resolveMx: () => new Promise(() => undefined), resolve4: () => new Promise(() => undefined) }, { timeoutMs: 50 });
    expect(await createEmailVerifier({ mailHosts: silent })('anna.schmidt@bakery.de')).toMatchObject({ deliverability: 'unknown' });
    const failing = createMailDomainLookup({ resolveMx: async () => { throw Object.assign(new Error('x'), { code: 'ESERVFAIL' }); }, resolve4: async () => [] });
    expect(await createEmailVerifier({ mailHosts: failing })('anna.schmidt@bakery.de')).toMatchObject({ deliverability: 'unknown' });
  });
});

describe('phone verdicts', () => {
  it.each([
    ['+4933224288333', 'fixed_line', '+49 3322 4288333'],
    ['+4915112345678', 'mobile', '+49 1511 2345678'],
    ['+498001234567', 'toll_free', '+49 800 1234567'],
    ['+447911123456', 'mobile', '+44 7911 123456'],
  ])('%s is %s, shown as %s', (e164, type, display) => {
    expect(judgePhone(e164)).toEqual({ type, display });
  });
});

describe('the MX check through node\'s resolver, against a name server on loopback', () => {
  it('accepts a domain with MX, refuses one that does not exist, and is unknown when the server is silent', async () => {
    const { startLoopbackDns } = await import('../support/loopbackDns.ts');
    const { mailResolverFor } = await import('../../src/verdicts/dnsMailDomainCheck.ts');
    const dns = await startLoopbackDns((domain) => (domain === 'bakery.de' ? ['mx1.bakery.de'] : undefined));
    try {
      const lookup = createMailDomainLookup(mailResolverFor([dns.address], 1000), { timeoutMs: 1000 });
      expect(await lookup('bakery.de')).toEqual({ status: 'accepts', hosts: ['mx1.bakery.de'] });
      expect(await lookup('no-such-domain.de')).toEqual({ status: 'refuses' });
    } finally {
      await dns.close();
    }
    const silent = await import('node:dgram').then((dgram) => dgram.createSocket('udp4'));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const lookup = createMailDomainLookup(mailResolverFor([`127.0.0.1:${port}`], 200), { timeoutMs: 300 });
      expect(await lookup('bakery.de')).toEqual({ status: 'unknown' });
    } finally {
      silent.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { createMailDomainLookup, type MailResolver } from '../../src/verdicts/dnsMailDomainCheck.ts';
import { judgeEmail } from '../../src/verdicts/emailVerdict.ts';
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

describe('email verdicts', () => {
  const lookup = createMailDomainLookup(zoneResolver({
    'bakery.de': { mx: ['mx.bakery.de'] },
    'gmail.com': { mx: ['gmail-smtp-in.l.google.com'] },
    'mailinator.com': { mx: ['mail.mailinator.com'] },
    'a-record-only.de': { a: ['192.0.2.1'] },
    'nullmx.de': { mx: ['.'] },
  }));

  it.each([
    ['anna.schmidt@bakery.de', 'valid', 'personal'],
    ['info@bakery.de', 'risky', 'role'],
    ['kontakt@bakery.de', 'risky', 'role'],
    ['anna.schmidt@gmail.com', 'risky', 'personal'],
    ['anna@a-record-only.de', 'valid', 'personal'],
    ['anna@mailinator.com', 'invalid', 'personal'],
    ['anna@no-such-domain.de', 'invalid', 'personal'],
    ['anna@nullmx.de', 'invalid', 'personal'],
    ['not an address', 'invalid', 'personal'],
  ])('%s is %s (%s)', async (email, status, type) => {
    expect(await judgeEmail(email, lookup)).toEqual({ status, type });
  });

  it('is unknown with the MX check off, and when the resolver cannot answer in time', async () => {
    expect(await judgeEmail('anna.schmidt@bakery.de', undefined)).toEqual({ status: 'unknown', type: 'personal' });
    expect(await judgeEmail('anna@mailinator.com', undefined)).toEqual({ status: 'invalid', type: 'personal' });
    const silent = createMailDomainLookup({ resolveMx: () => new Promise(() => undefined), resolve4: () => new Promise(() => undefined) }, { timeoutMs: 50 });
    expect(await judgeEmail('anna.schmidt@bakery.de', silent)).toEqual({ status: 'unknown', type: 'personal' });
    const failing = createMailDomainLookup({ resolveMx: async () => { throw Object.assign(new Error('x'), { code: 'ESERVFAIL' }); }, resolve4: async () => [] });
    expect(await judgeEmail('anna.schmidt@bakery.de', failing)).toEqual({ status: 'unknown', type: 'personal' });
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
      expect(await lookup('bakery.de')).toBe('accepts');
      expect(await lookup('no-such-domain.de')).toBe('refuses');
      expect(await judgeEmail('anna.schmidt@bakery.de', lookup)).toEqual({ status: 'valid', type: 'personal' });
    } finally {
      await dns.close();
    }
    const silent = await import('node:dgram').then((dgram) => dgram.createSocket('udp4'));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const lookup = createMailDomainLookup(mailResolverFor([`127.0.0.1:${port}`], 200), { timeoutMs: 300 });
      expect(await lookup('bakery.de')).toBe('unknown');
    } finally {
      silent.close();
    }
  });
});

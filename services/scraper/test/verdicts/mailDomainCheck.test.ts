import { describe, expect, it } from 'vitest';
import { createDnsMailDomainCheck, type MailResolver } from '../../src/verdicts/dnsMailDomainCheck.ts';
import { keepDeliverableEmails } from '../../src/verdicts/mailDomainCheck.ts';

const dnsError = (code: string): Error => Object.assign(new Error(code), { code });

function fakeResolver(mx: Record<string, string[] | string>, a: Record<string, string[]> = {}) {
  const calls: string[] = [];
  const resolver: MailResolver = {
    async resolveMx(domain) {
      calls.push(`mx ${domain}`);
      const records = mx[domain];
      if (typeof records === 'string') throw dnsError(records);
      if (!records) throw dnsError('ENODATA');
      return records.map((exchange, priority) => ({ exchange, priority }));
    },
    async resolve4(domain) {
      calls.push(`a ${domain}`);
      if (!a[domain]) throw dnsError('ENOTFOUND');
      return a[domain];
    },
  };
  return { resolver, calls };
}

describe('mail domain check', () => {
  it('accepts an MX, falls back to an A record, refuses a null MX and missing domains', async () => {
    const { resolver } = fakeResolver({ 'mx.example': ['mail.mx.example'], 'nullmx.example': ['.'] }, { 'a-only.example': ['192.0.2.1'] });
    const check = createDnsMailDomainCheck(resolver);
    expect(await check('mx.example')).toBe(true);
    expect(await check('a-only.example')).toBe(true);
    expect(await check('nullmx.example')).toBe(false);
    expect(await check('gone.example')).toBe(false);
  });

  it('keeps the address when the resolver cannot tell', async () => {
    const { resolver } = fakeResolver({ 'slow.example': 'ETIMEOUT' });
    expect(await createDnsMailDomainCheck(resolver)('slow.example')).toBe(true);
  });

  it('looks each domain up once', async () => {
    const { resolver, calls } = fakeResolver({ 'mx.example': ['mail.mx.example'] });
    const check = createDnsMailDomainCheck(resolver);
    await Promise.all([check('mx.example'), check('MX.example'), check('mx.example')]);
    expect(calls).toEqual(['mx mx.example']);
  });

  it('filters a list of emails in order', async () => {
    const deliverable = new Set(['bakery.de', 'gmail.com']);
    const kept = await keepDeliverableEmails(
      ['info@bakery.de', 'old@typo-domian.de', 'bakery@gmail.com', 'orders@bakery.de'],
      async (domain) => deliverable.has(domain),
    );
    expect(kept).toEqual(['info@bakery.de', 'bakery@gmail.com', 'orders@bakery.de']);
  });
});

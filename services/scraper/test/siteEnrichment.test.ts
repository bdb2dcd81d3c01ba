import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsMailDomainCheck } from '../src/verdicts/dnsMailDomainCheck.ts';
import type { Place } from '../src/places/index.ts';
import { contactKeyOf, leadOfPlace } from '../src/search/leadOfPlace.ts';
import { createSiteEnricher } from '../src/crawl/siteEnrichment.ts';
import { OutboundClient } from '../src/outbound/outboundClient.ts';
import { memoryProxyQuota } from '../src/outbound/proxyQuota.ts';
import { countryOfTown } from './realSites/placeCountry.ts';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import type { PageReader } from '../src/crawl/pageReader.ts';
import { testPageReader } from './support/testPageReader.ts';

const digits = (phone: string) => phone.replace(/\D/g, '');

describe('reading business websites through the fixture web', () => {
  let web: FixtureWeb;
  let client: OutboundClient;
  let parsing: ReturnType<typeof testPageReader>;
  let reader: PageReader;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 20, includeRealSites: true });
    parsing = testPageReader();
    reader = parsing.reader;
    client = new OutboundClient({
      userAgent: 'LeadforgeBot/1.0', allowPrivateNetworks: true, lookup: web.loopbackLookup, route: web.route,
      globalConcurrency: 32, perHostConcurrency: 2, perHostDelayMs: 0, maxCrawlDelayMs: 1000, connectTimeoutMs: 1000,
      totalTimeoutMs: 3000, maxResponseBytes: 2 * 1024 * 1024, maxRetries: 1, maxRetryAfterMs: 2000, retryBaseMs: 20,
      quota: memoryProxyQuota(), usage: { record: () => undefined },
    });
  });
  afterAll(async () => {
    await client?.close();
    await parsing?.release();
    await web?.close();
  });

  it('finds every generated site\'s contacts, whichever way the site shows them, within the page cap', async () => {
    const enrich = createSiteEnricher({ client, reader, contactPages: 3 });
    for (const site of web.sites) {
      const found = await enrich(`http://${site.host}/`, 'GB', AbortSignal.timeout(10_000));
      expect({ site: site.host, reached: found.reached }).toEqual({ site: site.host, reached: true });
      expect({ site: site.host, emails: found.emails }).toEqual({ site: site.host, emails: expect.arrayContaining(site.truth.emails) });
      // Style 6 has its phone only in the maps tags, not on the site.
      if (!site.placeTags.phone) expect({ site: site.host, phones: found.phones }).toEqual({ site: site.host, phones: expect.arrayContaining(site.truth.phones) });
      expect(found.pagesFetched).toBeLessThanOrEqual(4);
      for (const social of site.truth.socials) expect(found.socials.map((link) => link.url)).toContain(social);
    }
  });

  it('fetches no more contact pages than the cap, and one legal page more when the budget allows', async () => {
    const site = web.sites.find((candidate) => candidate.pages.size === 3 && candidate.pages.has('/impressum'))!;
    // The home page, its contact page, and the impressum it links to (it names who runs the business).
    const found = await createSiteEnricher({ client, reader, contactPages: 1 })(`http://${site.host}/`, 'GB', AbortSignal.timeout(10_000));
    expect(found.pagesFetched).toBe(3);
    // Without the budget for it, the cap holds.
    const within = await createSiteEnricher({ client, reader, contactPages: 1, pagesPerSite: 2 })(`http://${site.host}/`, 'GB', AbortSignal.timeout(10_000));
    expect(within.pagesFetched).toBe(2);
  });

  it('reads the real sites of test/fixtures/real-sites served by the fixture web', async () => {
    const enrich = createSiteEnricher({ client, reader, contactPages: 3 });
    let expected = 0;
    let found = 0;
    let phonesExpected = 0;
    let phonesFound = 0;
    for (const site of web.realSites) {
      const contacts = await enrich(`http://${site.host}/`, countryOfTown(site.city), AbortSignal.timeout(10_000));
      expect(contacts.reached).toBe(true);
      expected += site.truth.emails.length;
      found += site.truth.emails.filter((email) => contacts.emails.includes(email)).length;
      phonesExpected += site.truth.phones.length;
      phonesFound += site.truth.phones.filter((phone) => contacts.phones.some((candidate) => digits(candidate).endsWith(digits(phone).replace(/^0+/, '')))).length;
    }
    console.log(`real sites through the crawler: emails ${found}/${expected}, phones ${phonesFound}/${phonesExpected}`);
    expect(found / expected).toBeGreaterThanOrEqual(0.8);
    expect(phonesFound / phonesExpected).toBeGreaterThanOrEqual(0.7);
  });

  it('keeps only emails whose domain takes mail when the MX check is on', async () => {
    const resolver = {
      resolveMx: async (domain: string) => {
        if (domain === 'site-000.fixture.test') return [{ exchange: 'mx.site-000.fixture.test', priority: 10 }];
        if (domain === 'site-001.fixture.test') return [{ exchange: '', priority: 0 }];
        throw Object.assign(new Error('no data'), { code: 'ENODATA' });
      },
      resolve4: async () => { throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' }); },
    };
    const enrich = createSiteEnricher({ client, reader, contactPages: 3, mailCheck: createDnsMailDomainCheck(resolver) });
    expect((await enrich('http://site-000.fixture.test/', 'GB', AbortSignal.timeout(10_000))).emails).toEqual(['info@site-000.fixture.test']);
    // A null MX (RFC 7505) and a domain without any record both refuse mail.
    expect((await enrich('http://site-001.fixture.test/', 'GB', AbortSignal.timeout(10_000))).emails).toEqual([]);
    expect((await enrich('http://site-002.fixture.test/', 'GB', AbortSignal.timeout(10_000))).emails).toEqual([]);
  });

  it('reports an unreachable site as not reached rather than failing the search', async () => {
    const enrich = createSiteEnricher({ client, reader, contactPages: 3 });
    const found = await enrich('http://down.fixture.test/', 'GB', AbortSignal.timeout(10_000));
    expect(found).toMatchObject({ reached: false, emails: [], phones: [] });
    expect(found.failure).toContain('down.fixture.test');
  });
});

describe('a lead from a place and its website', () => {
  const place: Place = {
    placeId: 'node/42', source: 'osm', name: 'Bright Dental', website: 'https://bright.example.co.uk/',
    phone: '020 7946 0123', email: 'Desk@Bright-Dental.co.uk', address: '1 High St, London', city: 'London', country: 'GB',
  };

  it('puts the place\'s own contacts first, then the site\'s, without repeats', () => {
    const lead = leadOfPlace(place, {
      emails: ['info@bright-dental.co.uk', 'desk@bright-dental.co.uk'], phones: ['+442079460999', '+442079460123'],
      socials: [{ network: 'facebook', url: 'https://www.facebook.com/bright' }], reached: true, pagesFetched: 2, pagesGivenUp: 0,
      sources: { 'info@bright-dental.co.uk': { url: 'https://bright.example.co.uk/contact', fetched_at: '2026-11-24T10:00:00.000Z' } },
    })!;
    expect(lead).toEqual({
      // No page named a person: the name stays empty, never a copy of the company.
      key: 'osm:node/42', name: '', company: 'Bright Dental',
      email: 'desk@bright-dental.co.uk', phone: '+442079460123', website: 'https://bright.example.co.uk/', city: 'London',
      address: '1 High St, London', country: 'GB', socials: [{ network: 'facebook', url: 'https://www.facebook.com/bright' }],
      source: 'osm', place_id: 'node/42',
      emails: ['desk@bright-dental.co.uk', 'info@bright-dental.co.uk'], phones: ['+442079460123', '+442079460999'],
      // The place's own tags come from its map listing, not from a page.
      email_source: 'osm:node/42', phone_source: 'osm:node/42', phone_type: 'fixed_line', phone_display: '+44 20 7946 0123',
    });
    expect(contactKeyOf(lead)).toBe('email:desk@bright-dental.co.uk');
  });

  it('names the decision-maker the site names, lists everyone with their roles and pages, never the business itself', () => {
    const site = { emails: ['info@bright-dental.co.uk'], phones: [], socials: [], reached: true, pagesFetched: 2, pagesGivenUp: 0, sources: {} };
    const people = [
      { name: 'Jane Doe', role: 'owner' as const, roleText: 'Owner', page: 'https://bright.example.co.uk/about' },
      { name: 'Tom Reed', role: 'manager' as const, page: 'https://bright.example.co.uk/team' },
    ];
    expect(leadOfPlace(place, { ...site, people })).toMatchObject({
      name: 'Jane Doe', company: 'Bright Dental',
      people: [
        { name: 'Jane Doe', role: 'owner', role_text: 'Owner', source: 'https://bright.example.co.uk/about' },
        { name: 'Tom Reed', role: 'manager', source: 'https://bright.example.co.uk/team' },
      ],
    });
    const business = leadOfPlace(place, { ...site, people: [{ name: 'Bright Dental', role: 'owner', page: 'https://bright.example.co.uk/' }] });
    expect(business).toMatchObject({ name: '', company: 'Bright Dental' });
    expect(business).not.toHaveProperty('people');
  });

  it('says which page showed a contact taken from the site, and when it was fetched', () => {
    const fetchedAt = '2026-11-24T10:00:00.000Z';
    const lead = leadOfPlace({ ...place, phone: undefined, email: undefined }, {
      emails: ['info@bright-dental.co.uk'], phones: ['+447911123456'], socials: [], reached: true, pagesFetched: 2, pagesGivenUp: 0,
      sources: {
        'info@bright-dental.co.uk': { url: 'https://bright.example.co.uk/contact', fetched_at: fetchedAt },
        '+447911123456': { url: 'https://bright.example.co.uk/', fetched_at: fetchedAt },
      },
    })!;
    expect(lead).toMatchObject({
      email_source: 'https://bright.example.co.uk/contact', email_fetched_at: fetchedAt,
      phone_source: 'https://bright.example.co.uk/', phone_fetched_at: fetchedAt, phone_type: 'mobile', phone_display: '+44 7911 123456',
    });
  });

  it('is no lead without an email or a phone; an invalid place phone is dropped', () => {
    expect(leadOfPlace({ ...place, phone: undefined, email: undefined })).toBeUndefined();
    expect(leadOfPlace({ ...place, phone: '12', email: undefined })).toBeUndefined();
    const phoneOnly = leadOfPlace({ ...place, email: 'not an email', website: undefined, city: undefined })!;
    expect(phoneOnly).toMatchObject({ email: '', phone: '+442079460123', website: '', city: '' });
    expect(contactKeyOf(phoneOnly)).toBe('phone:+442079460123');
  });
});

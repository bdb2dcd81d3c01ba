// Contact extraction through the whole crawl on the real sites of
// services/scraper/test/fixtures/real-sites, served by the fixture web each under its own host
// (home page at /, the stored contact page for any other page path, 404 for robots.txt, sitemap
// and assets): the site enricher as a search runs it (outbound client with robots.txt, parsing
// pool, per-site request budget). Prints email and phone precision and recall, the precision and
// recall of the names of the people who run each business (truth.json "people"), and the requests
// per site (robots.txt included). Targets: recall >= 0.95, precision >= 0.99, <= 6 requests per site;
// person names precision >= 0.95, recall >= 0.80.
import pino from 'pino';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import { DEFAULT_MAX_DEPTH } from '../services/scraper/src/extract/index.ts';
import { createSiteEnricher } from '../services/scraper/src/crawl/siteEnrichment.ts';
import { OutboundClient } from '../services/scraper/src/outbound/outboundClient.ts';
import { acquireParsePool } from '../services/scraper/src/crawl/parsePool.ts';
import { createPageReader } from '../services/scraper/src/crawl/pageReader.ts';
import { memoryProxyQuota } from '../services/scraper/src/outbound/proxyQuota.ts';
import { startFixtureWeb } from '../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { emptyTally, personKey, phoneKey, precision, recall, tally } from '../services/scraper/test/realSites/contactScore.ts';
import { countryOfTown } from '../services/scraper/test/realSites/placeCountry.ts';
import { reportFigures } from './benchResults.ts';

const TARGETS = { emailRecall: 0.95, emailPrecision: 0.99, phoneRecall: 0.95, phonePrecision: 0.99, personPrecision: 0.95, personRecall: 0.8, requestsPerSite: 6 };
const round = (value: number) => Math.round(value * 1000) / 1000;

const web = await startFixtureWeb({ sites: 0, includeRealSites: true });
const lease = acquireParsePool(1);
const requestsByHost = new Map<string, number>();
const client = new OutboundClient({
  userAgent: 'LeadforgeBot/1.0', allowPrivateNetworks: true, lookup: web.loopbackLookup, route: web.route,
  globalConcurrency: 32, perHostConcurrency: 2, perHostDelayMs: 0, maxCrawlDelayMs: 1000, connectTimeoutMs: 2000,
  totalTimeoutMs: 5000, maxResponseBytes: 2 * 1024 * 1024, maxRetries: 0, maxRetryAfterMs: 1000, retryBaseMs: 20,
  quota: memoryProxyQuota(),
  usage: { record: ({ domain }) => requestsByHost.set(domain, (requestsByHost.get(domain) ?? 0) + 1) },
});
const reader = createPageReader({ pool: lease.pool, timeoutMs: 10_000, maxDepth: DEFAULT_MAX_DEPTH, onGivenUp: () => undefined, log: pino({ level: 'silent' }) });
const enrich = createSiteEnricher({ client, reader, contactPages: 3 });

try {
  const emails = emptyTally();
  const phones = emptyTally();
  const people = emptyTally();
  for (const site of web.realSites) {
    // The place's country, as a maps source gives it (else its town's).
    const labelled = site.truth.country ?? undefined;
    const country = (labelled && isSupportedCountry(labelled) ? labelled : countryOfTown(site.city)) as CountryCode | undefined;
    const found = await enrich(`http://${site.host}/`, country, AbortSignal.timeout(30_000));
    tally(emails, site.slug, found.emails, site.truth.emails, site.truth.optional_emails ?? []);
    tally(people, site.slug, (found.people ?? []).map((person) => personKey(person.name)), site.truth.people.map((person) => personKey(person.name)), []);
    tally(phones, site.slug, found.phones, site.truth.phones.map((phone) => phoneKey(phone, country)), (site.truth.optional_phones ?? []).map((phone) => phoneKey(phone, country)));
  }
  const requests = [...requestsByHost.values()].reduce((sum, count) => sum + count, 0);
  const figures = {
    sites: web.realSites.length,
    emailPrecision: round(precision(emails)),
    emailRecall: round(recall(emails)),
    phonePrecision: round(precision(phones)),
    phoneRecall: round(recall(phones)),
    personPrecision: round(precision(people)),
    personRecall: round(recall(people)),
    requestsPerSite: round(requests / web.realSites.length),
    missed: [...emails.missed, ...phones.missed, ...people.missed],
    extra: [...emails.extra, ...phones.extra, ...people.extra],
  };
  const met = figures.emailRecall >= TARGETS.emailRecall && figures.emailPrecision >= TARGETS.emailPrecision
    && figures.phoneRecall >= TARGETS.phoneRecall && figures.phonePrecision >= TARGETS.phonePrecision
    && figures.personPrecision >= TARGETS.personPrecision && figures.personRecall >= TARGETS.personRecall && figures.requestsPerSite <= TARGETS.requestsPerSite;
  console.log(`real sites through the crawl: email P ${figures.emailPrecision} R ${figures.emailRecall}, phone P ${figures.phonePrecision} R ${figures.phoneRecall}, person names P ${figures.personPrecision} R ${figures.personRecall}, ${figures.requestsPerSite} requests/site`);
  reportFigures('crawlQuality', { ...figures, targets: TARGETS, met });
} finally {
  await client.close();
  await lease.release();
  await web.close();
}

export { extractContacts, rankContacts, type ReadPage } from './extractContacts.ts';
export { findContactPages, findScoredContactPages, type ScoredPage } from './contactPages.ts';
export { findFrames, findNavigationLinks } from './siteLinks.ts';
export { contactEntriesOfSitemap } from './sitemapEntries.ts';
export { countryOfHost } from './countryOfHost.ts';
export { DEFAULT_MAX_DEPTH, loadHtml, PageTooDeep } from './boundedHtml.ts';
export { readPageContacts, type PageContacts } from './pageContacts.ts';
export type { CountryCode, ExtractedContacts, ExtractOptions, FetchedPage, Person, PersonRole, SocialLink, SocialNetwork } from './types.ts';

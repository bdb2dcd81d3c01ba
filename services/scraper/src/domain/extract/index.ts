export { extractContacts, rankContacts } from './extractContacts.ts';
export { findContactPages } from './contactPages.ts';
export { countryOfHost } from './countryOfHost.ts';
export { keepDeliverableEmails, type MailDomainCheck } from './mailDomainCheck.ts';
export { createDnsMailDomainCheck, type MailResolver } from './dnsMailDomainCheck.ts';
export { DEFAULT_MAX_DEPTH, loadHtml, PageTooDeep } from './boundedHtml.ts';
export { readPageContacts, type PageContacts } from './pageContacts.ts';
export type { CountryCode, ExtractedContacts, ExtractOptions, FetchedPage, SocialLink, SocialNetwork } from './types.ts';

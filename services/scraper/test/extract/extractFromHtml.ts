import { extractContacts } from '../../src/extract/extractContacts.ts';
import type { CountryCode, ExtractedContacts } from '../../src/extract/types.ts';

/** Contacts of a single page given as an HTML body fragment. */
export function extractFromHtml(body: string, defaultCountry?: CountryCode, siteUrl = 'https://www.example-bakery.de/'): ExtractedContacts {
  return extractContacts([{ url: siteUrl, html: `<!doctype html><html><body>${body}</body></html>` }], { defaultCountry, siteUrl });
}

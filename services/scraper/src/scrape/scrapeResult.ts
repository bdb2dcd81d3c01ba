import * as cheerio from 'cheerio';
import { countryOfHost, extractContacts } from '../domain/extract/index.ts';
import type { FetchedResponse } from '../outbound/outboundClient.ts';
import { decodeText } from '../outbound/responseBody.ts';

const MAX_LINKS = 100;
const MAX_TEXT = 10_000;

export interface HtmlSummary {
  title: string;
  status: number;
  emails: string[];
  phones: string[];
  /** Absolute http(s) links of the page, first ones first. */
  links: string[];
}

/** A page as an admin's test scrape shows it: the title, the status, the contacts and the links found. */
export function summariseHtml(url: string, status: number, html: string): HtmlSummary {
  const $ = cheerio.load(html);
  const links = new Set<string>();
  $('a[href]').each((_, element) => {
    if (links.size >= MAX_LINKS) return false;
    try {
      const link = new URL(($(element).attr('href') ?? '').trim(), url);
      if (link.protocol === 'http:' || link.protocol === 'https:') links.add(link.href);
    } catch { /* not a URL: skip it */ }
    return undefined;
  });
  const contacts = extractContacts([{ url, html }], { siteUrl: url, defaultCountry: countryOfHost(new URL(url).hostname) });
  return { title: $('title').first().text().replace(/\s+/g, ' ').trim(), status, emails: contacts.emails, phones: contacts.phones, links: [...links] };
}

/** The `data` of a scrape result: parsed JSON for JSON, a summary for HTML, the text (capped) otherwise. */
export function scrapeData(response: FetchedResponse): unknown {
  const text = decodeText(response.body, response.contentType);
  if (response.kind === 'json') {
    try {
      return JSON.parse(text);
    } catch { /* declared JSON but is not: show it as text */ }
  }
  if (response.kind === 'html') return summariseHtml(response.url, response.status, text);
  return { status: response.status, content_type: response.contentType ?? null, text: text.slice(0, MAX_TEXT) };
}

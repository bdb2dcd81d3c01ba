import type { CheerioAPI } from 'cheerio';
import { countryOfHost, rankContacts, readPageContacts } from '../extract/index.ts';

const MAX_LINKS = 100;

export interface HtmlSummary {
  title: string;
  status: number;
  emails: string[];
  phones: string[];
  /** Absolute http(s) links of the page, first ones first. */
  links: string[];
}

/** A page as an admin's test scrape shows it: the title, the status, the contacts and the links found. */
export function summariseHtml(url: string, status: number, $: CheerioAPI): HtmlSummary {
  const links = new Set<string>();
  $('a[href]').each((_, element) => {
    if (links.size >= MAX_LINKS) return false;
    try {
      const link = new URL(($(element).attr('href') ?? '').trim(), url);
      if (link.protocol === 'http:' || link.protocol === 'https:') links.add(link.href);
    } catch { /* not a URL: skip it */ }
    return undefined;
  });
  const contacts = rankContacts([{ url, contacts: readPageContacts($, countryOfHost(new URL(url).hostname)) }], url);
  return { title: $('title').first().text().replace(/\s+/g, ' ').trim(), status, emails: contacts.emails, phones: contacts.phones, links: [...links] };
}

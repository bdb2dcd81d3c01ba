import type { CheerioAPI } from 'cheerio';
import { loadHtml } from './boundedHtml.ts';
import { hostOf, sameSite } from './siteDomain.ts';
import { textOf } from './textOf.ts';

// How likely a page is to carry the business's contacts, by words in its link text or path.
const PAGE_KINDS: { score: number; words: RegExp }[] = [
  {
    score: 3,
    words: /kontakt|contact|contacto|contato|contatti|kapcsolat|yhteys|iletisim|get-?in-?touch|reach-?us|erreichen/,
  },
  {
    score: 2,
    words: /impressum|imprint|legal|mentions|aviso-?legal|note-?legali|colofon|aviso|informacion-?legal/,
  },
  {
    score: 1,
    words:
      /about|uber-?uns|ueber-?uns|(?<![a-z])(?:wir|team|sobre|o-nas|om-oss|om-os)(?![a-z])|chi-?siamo|quienes-?somos|qui-?sommes|over-?ons|find-?us|location|anfahrt|standort|directions/,
  },
];

export const NOT_A_PAGE = /\.(?:pdf|jpe?g|png|gif|svg|webp|zip|docx?|xlsx?|mp4|mp3)$/i;

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[\s_]+/g, '-');
}

const linkWords = (linkText: string, pathname: string): string => `${fold(linkText)} ${fold(decodePath(pathname))}`;

/** How likely a page is to hold the contacts, from its link text and path: 3 contact, 2 legal, 1 about, 0 none. */
export function contactScore(linkText: string, pathname: string): number {
  const words = linkWords(linkText, pathname);
  return Math.max(0, ...PAGE_KINDS.filter((kind) => kind.words.test(words)).map((kind) => kind.score));
}

/** A legal page (impressum, imprint, legal notice): the one that must name who runs the business. */
const isLegalPage = (linkText: string, pathname: string): boolean => PAGE_KINDS[1].words.test(linkWords(linkText, pathname));

/** A linked page worth reading for contacts, with how likely it holds them (see contactScore). */
export interface ScoredPage {
  url: string;
  score: number;
  /** A legal page, also when it scores as a contact page ("Kontakt & Impressum"). */
  legal?: boolean;
}

/**
 * Same-site links from a home page to its contact, legal (impressum / imprint) and about pages,
 * best first, at most `cap`; the best legal page beyond them when none of them is one (the crawl
 * reads it when its page budget allows: it names the people who run the business).
 */
export function findContactPages(homeUrl: string, html: string | CheerioAPI, cap = 3): string[] {
  return findScoredContactPages(homeUrl, html, cap).map((page) => page.url);
}

/** findContactPages with each page's score. */
export function findScoredContactPages(homeUrl: string, html: string | CheerioAPI, cap = 3): ScoredPage[] {
  const homeHost = hostOf(homeUrl);
  if (!homeHost) return [];
  const $ = typeof html === 'string' ? loadHtml(html) : html;
  const home = new URL(homeUrl);
  const homeWithoutHash = home.href.split('#')[0];
  const candidates = new Map<string, { score: number; order: number; legal: boolean }>();

  $('a[href], area[href], frame[src], iframe[src]').each((order, el) => {
    const raw = $(el).attr('href') ?? $(el).attr('src') ?? '';
    let url: URL;
    try {
      url = new URL(raw.trim(), home);
    } catch {
      return;
    }
    if (!/^https?:$/.test(url.protocol) || !sameSite(url.hostname, homeHost) || NOT_A_PAGE.test(url.pathname)) return;
    url.hash = '';
    if (url.href === homeWithoutHash) return;
    const text = textOf(el);
    const score = contactScore(text, url.pathname);
    const legal = isLegalPage(text, url.pathname);
    const known = candidates.get(url.href);
    if (score > 0 && (!known || known.score < score)) candidates.set(url.href, { score, order: known?.order ?? order, legal: legal || (known?.legal ?? false) });
    else if (known && legal) known.legal = true;
  });

  const ranked = [...candidates.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.order - b.order)
    .map(([url, { score, legal }]) => ({ url, score, ...(legal ? { legal } : {}) }));
  const chosen = ranked.slice(0, cap);
  const legalBeyond = chosen.some((page) => page.legal) ? undefined : ranked.slice(cap).find((page) => page.legal);
  return legalBeyond ? [...chosen, legalBeyond] : chosen;
}

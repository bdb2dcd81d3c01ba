import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { NOT_A_PAGE } from './contactPages.ts';
import { hostOf, sameSite } from './siteDomain.ts';

/** A same-site page address without its fragment, or undefined for anything else. */
function sameSitePage(raw: string, base: URL, baseHost: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol) || !sameSite(url.hostname, baseHost) || NOT_A_PAGE.test(url.pathname)) return undefined;
  url.hash = '';
  return url.href === base.href.split('#')[0] ? undefined : url.href;
}

/**
 * Same-site `<frame>` and `<iframe>` sources of a page: what a visitor sees as part of it. Frames
 * that scroll come first; `scrolling="no"` marks the decorative bars and banners of a frameset.
 */
export function findFrames(pageUrl: string, $: CheerioAPI, cap: number): string[] {
  const host = hostOf(pageUrl);
  if (!host || cap <= 0) return [];
  const base = new URL(pageUrl);
  const frames = $('frame[src], iframe[src]').toArray().flatMap((el) => {
    const url = sameSitePage(el.attribs.src ?? '', base, host);
    return url ? [{ url, fixed: (el.attribs.scrolling ?? '').toLowerCase() === 'no' }] : [];
  });
  const ordered = [...frames.filter((frame) => !frame.fixed), ...frames.filter((frame) => frame.fixed)];
  return [...new Set(ordered.map((frame) => frame.url))].slice(0, cap);
}

const NAVIGATION = 'nav, header, [role="navigation"], [id*="nav" i], [class*="nav" i], [id*="menu" i], [class*="menu" i]';

/**
 * Same-site page links of a page in the order a visitor meets the site's structure: links in its
 * navigation (nav, header, menus) first, then the others in page order.
 */
export function findNavigationLinks(pageUrl: string, $: CheerioAPI, cap: number): string[] {
  const host = hostOf(pageUrl);
  if (!host || cap <= 0) return [];
  const base = new URL(pageUrl);
  const inNavigation = new Set<Element>($(NAVIGATION).find('a[href], area[href]').toArray());
  const links = $('a[href], area[href]').toArray().flatMap((el) => {
    const url = sameSitePage(el.attribs.href ?? '', base, host);
    return url && !/^(?:mailto|tel|javascript):/i.test(el.attribs.href ?? '') ? [{ url, navigation: inNavigation.has(el) }] : [];
  });
  const ordered = [...links.filter((link) => link.navigation), ...links.filter((link) => !link.navigation)];
  return [...new Set(ordered.map((link) => link.url))].slice(0, cap);
}

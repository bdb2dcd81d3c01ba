import fs from 'node:fs';
import path from 'node:path';
import { REAL_SITES_DIR } from '../fixturePaths.ts';
import type { LabelledPerson } from '../realSites/realSite.ts';

/** A real site of test/fixtures/real-sites, served as it is under its own fixture host. */
export interface RealSiteHost {
  slug: string;
  host: string;
  name: string;
  city: string | null;
  index: string;
  contact: string;
  truth: { emails: string[]; phones: string[]; optional_emails?: string[]; optional_phones?: string[]; country?: string | null; people: LabelledPerson[] };
}

const titleOf = (html: string): string | undefined => /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, ' ').trim();

export function loadRealSiteHosts(): RealSiteHost[] {
  return fs.readdirSync(REAL_SITES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name: slug }) => {
      const read = (file: string) => fs.readFileSync(path.join(REAL_SITES_DIR, slug, file), 'utf8');
      const index = read('index.html');
      const truth = JSON.parse(read('truth.json'));
      return {
        slug,
        host: `real-${slug}.fixture.test`,
        name: titleOf(index) || slug,
        city: truth.city,
        index,
        contact: read('contact.html'),
        truth,
      };
    });
}

/**
 * The page a real site answers for a path: its home page at `/`, its stored contact page for any
 * other page path (the stored pages are the only ones we have; their links are relative), and
 * nothing for assets.
 */
export function realSitePage(site: RealSiteHost, pathname: string): string | undefined {
  if (pathname === '/' || /^\/index\.html?$/i.test(pathname)) return site.index;
  if (/\.(css|js|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|pdf|xml|txt)$/i.test(pathname)) return undefined;
  return site.contact;
}

import fs from 'node:fs';
import path from 'node:path';
import type { CountryCode, FetchedPage, PersonRole } from '../../src/extract/types.ts';
import { REAL_SITES_DIR } from '../fixturePaths.ts';

export interface Truth {
  emails: string[];
  phones: string[];
  optional_emails?: string[];
  optional_phones?: string[];
  city: string | null;
  /** The place's country (ISO 3166 alpha-2), as the maps source gives it; null when unknown. */
  country?: CountryCode | null;
  /** The people the pages name as running the business ([] when none), the decision-maker first. */
  people: LabelledPerson[];
}

/** A labelled person: the full name, the normalised role, the role as the pages write it (if they do). */
export interface LabelledPerson {
  name: string;
  role: PersonRole;
  role_text?: string;
}

export interface RealSite {
  slug: string;
  pages: FetchedPage[];
  truth: Truth;
  /** The site's own address as the pages declare it (canonical / og:url), else a local one. */
  siteUrl: string;
}

const LOCAL_ORIGIN = 'http://127.0.0.1:8080';

function declaredUrl(html: string): string | undefined {
  const canonical = /<link[^>]+rel=["']?canonical["']?[^>]*href=["']?(https?:\/\/[^"'\s>]+)/i.exec(html);
  const ogUrl = /<meta[^>]+property=["']?og:url["']?[^>]*content=["']?(https?:\/\/[^"'\s>]+)/i.exec(html);
  return canonical?.[1] ?? ogUrl?.[1];
}

export function loadRealSites(): RealSite[] {
  return fs
    .readdirSync(REAL_SITES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name: slug }) => {
      const dir = path.join(REAL_SITES_DIR, slug);
      const read = (file: string): string => fs.readFileSync(path.join(dir, file), 'utf8');
      const index = read('index.html');
      return {
        slug,
        pages: [
          { url: `${LOCAL_ORIGIN}/`, html: index },
          { url: `${LOCAL_ORIGIN}/contact.html`, html: read('contact.html') },
        ],
        truth: JSON.parse(read('truth.json')) as Truth,
        siteUrl: declaredUrl(index) ?? `${LOCAL_ORIGIN}/`,
      };
    });
}

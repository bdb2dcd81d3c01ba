import type { CountryCode } from 'libphonenumber-js';

export type { CountryCode };

/** One fetched page of a business website. */
export interface FetchedPage {
  url: string;
  html: string;
}

export type SocialNetwork = 'facebook' | 'instagram' | 'linkedin' | 'x' | 'youtube' | 'tiktok';

export interface SocialLink {
  network: SocialNetwork;
  url: string;
}

/** A person's role in the business, normalised from the role the page writes. */
export type PersonRole = 'owner' | 'managing_director' | 'partner' | 'manager' | 'other';

/** A person who runs the business, as its pages name them. */
export interface Person {
  name: string;
  role: PersonRole;
  /** The role as the page writes it ("Inhaberin", "Founder & CEO"), when it writes one. */
  roleText?: string;
  /** The page that names them (with the best role, when several do). */
  page: string;
}

/** Contacts of one business, each list ordered best first. */
export interface ExtractedContacts {
  emails: string[];
  /** E.164, e.g. +441793770248 */
  phones: string[];
  socials: SocialLink[];
  /** The people the pages name as running the business, the best decision-maker first (absent: none). */
  people?: Person[];
}

export interface ExtractOptions {
  /** Country used to read national-format numbers (ISO 3166 alpha-2), usually the place's. */
  defaultCountry?: CountryCode;
  /** The business's own website; its domain ranks first among emails. Defaults to the first page's URL. */
  siteUrl?: string;
}

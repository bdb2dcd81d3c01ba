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

/** Contacts of one business, each list ordered best first. */
export interface ExtractedContacts {
  emails: string[];
  /** E.164, e.g. +441793770248 */
  phones: string[];
  socials: SocialLink[];
  /** The person the pages name behind the business (owner, managing director, signatory), if any. */
  person?: string;
}

export interface ExtractOptions {
  /** Country used to read national-format numbers (ISO 3166 alpha-2), usually the place's. */
  defaultCountry?: CountryCode;
  /** The business's own website; its domain ranks first among emails. Defaults to the first page's URL. */
  siteUrl?: string;
}

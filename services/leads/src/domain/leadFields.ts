import type { Static } from 'typebox';
import type { EngineLead, Lead } from '@leadforge/contracts';

export type IncomingLead = Static<typeof EngineLead>;

// Control characters (except none: a lead field is one line) and the Unicode bidi overrides that
// can make a scraped name display as something else.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
// Half a UTF-16 surrogate pair is no character: PostgreSQL's json refuses it (the live feed is jsonb).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** One line of scraped text: unsafe characters out, whitespace collapsed, length capped. */
export function cleanText(value: unknown, max = 300): string {
  if (typeof value !== 'string') return '';
  // Surrogates last: the cap may cut a pair in two.
  return value.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim().slice(0, max).replace(LONE_SURROGATE, '\ufffd');
}

/** The engine's key for a lead (its place), as stored: one clean line, capped (it is part of a unique index). */
export function leadKeyOf(lead: Pick<IncomingLead, 'key'>): string {
  return cleanText(lead.key, 500);
}

/** A website is kept only as an absolute http(s) URL; anything else (javascript:, data:, junk) is dropped. */
export function safeWebsite(value: unknown): string {
  const text = cleanText(value, 2048);
  if (!text) return '';
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : '';
  } catch {
    return '';
  }
}

/**
 * A lead is a way to reach a business: one left without an email and a phone (opted out, suppressed,
 * or never found) is not delivered nor charged, wherever leads are taken (searches, monitors' runs).
 */
export const hasContact = (lead: Pick<Lead, 'email' | 'phone'>): boolean => lead.email !== '' || lead.phone !== '';

const PERSON_ROLES = new Set<string>(['owner', 'managing_director', 'partner', 'manager', 'other']);

/** The people of a lead, cleaned: each with a name and a known role (else "other"), at most 20. */
export function cleanPeople(people: IncomingLead['people']): NonNullable<Lead['people']> {
  return (people ?? []).flatMap((person) => {
    const name = cleanText(person.name, 120);
    if (!name) return [];
    const roleText = cleanText(person.role_text, 80);
    const source = safeWebsite(person.source);
    return [{
      name,
      role: PERSON_ROLES.has(person.role) ? person.role : 'other' as const,
      ...(roleText ? { role_text: roleText } : {}),
      ...(source ? { source } : {}),
    }];
  }).slice(0, 20);
}

/** The lead as the user sees it and as it is stored. */
export function toStoredLead(lead: IncomingLead): Lead {
  const people = cleanPeople(lead.people);
  const socials = (lead.socials ?? [])
    .map((s) => ({ network: cleanText(s.network, 40), url: safeWebsite(s.url) }))
    .filter((s) => s.network && s.url)
    .slice(0, 20);
  return {
    name: cleanText(lead.name),
    company: cleanText(lead.company),
    email: cleanText(lead.email, 254),
    phone: cleanText(lead.phone, 40),
    website: safeWebsite(lead.website),
    city: cleanText(lead.city, 120),
    ...(lead.address ? { address: cleanText(lead.address, 300) } : {}),
    ...(lead.country ? { country: cleanText(lead.country, 80) } : {}),
    ...(socials.length ? { socials } : {}),
    ...(people.length ? { people } : {}),
    ...(lead.source ? { source: cleanText(lead.source, 40) } : {}),
    ...(lead.place_id ? { place_id: cleanText(lead.place_id, 200) } : {}),
    ...verdictFields(lead),
  };
}

/** The lead's verdict and provenance as leads-table columns (null where unset). */
export function verdictColumns(lead: Lead): Record<string, string | number | null> {
  return Object.fromEntries([...VERDICT_TEXT_FIELDS, ...PROVENANCE_FIELDS, ...FETCH_TIME_FIELDS, 'email_smtp_code' as const].map((key) => [key, lead[key] ?? null]));
}

const VERDICT_TEXT_FIELDS = ['email_deliverability', 'email_type', 'phone_type', 'phone_display'] as const;
const PROVENANCE_FIELDS = ['email_source', 'email_mx_host', 'phone_source'] as const;
const FETCH_TIME_FIELDS = ['email_fetched_at', 'email_checked_at', 'phone_fetched_at'] as const;

/** A lead's verdict and provenance fields, cleaned; a time that is no date is dropped. */
function verdictFields(lead: IncomingLead): Partial<Lead> {
  const fields: Record<string, string | number> = {};
  for (const key of VERDICT_TEXT_FIELDS) if (lead[key]) fields[key] = cleanText(lead[key], 40);
  for (const key of PROVENANCE_FIELDS) if (lead[key]) fields[key] = cleanText(lead[key], 2048);
  if (lead.email_smtp_code !== undefined) fields.email_smtp_code = lead.email_smtp_code;
  for (const key of FETCH_TIME_FIELDS) {
    const time = lead[key] ? new Date(lead[key]) : undefined;
    if (time && !Number.isNaN(time.getTime())) fields[key] = time.toISOString();
  }
  return fields as Partial<Lead>;
}

/**
 * What makes two leads the same business for the user: the same company reached the same way.
 * Two place ids for one business (a map node and a building outline) yield the same fingerprint.
 */
export function fingerprintOf(lead: Lead): string {
  const site = lead.website ? new URL(lead.website).host.replace(/^www\./, '') + new URL(lead.website).pathname.replace(/\/+$/, '') : '';
  const phone = lead.phone.replace(/[^\d+]/g, '');
  return [lead.company.toLowerCase(), lead.email, phone, site].join('|');
}

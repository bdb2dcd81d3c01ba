import type { CheerioAPI } from 'cheerio';

/** A person the page declares: its name, jobTitle, and whether it is the organisation's founder. */
export interface DeclaredPerson {
  name: string;
  jobTitle?: string;
  founder: boolean;
}

/** Contact fields a page declares about itself in schema.org JSON-LD. */
export interface StructuredContacts {
  emails: string[];
  telephones: string[];
  sameAs: string[];
  /** The persons it declares: a `Person` (JSON-LD or microdata), an organisation's `founder` or `employee`. */
  persons: DeclaredPerson[];
}

// Nested entities under these keys describe other parties (the web agency, a reviewer, a brand).
const OTHER_PARTIES = new Set([
  'author', 'creator', 'contributor', 'editor', 'provider', 'sponsor', 'funder', 'review', 'reviews',
  'brand', 'manufacturer', 'copyrightHolder', 'accountablePerson',
]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Hand-written blocks often carry trailing commas or comments.
    const cleaned = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/,\s*([}\]])/g, '$1');
    try {
      return JSON.parse(cleaned);
    } catch {
      return undefined;
    }
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

// Real JSON-LD nests a few levels; a hostile block can nest thousands (the recursion would overflow).
const MAX_NESTING = 32;

const firstString = (value: unknown): string | undefined => strings(value)[0];

function collect(value: unknown, into: StructuredContacts, nesting = 0, founder = false): void {
  if (nesting > MAX_NESTING) return;
  if (Array.isArray(value)) {
    value.forEach((item) => collect(item, into, nesting + 1, founder));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entity = value as Record<string, unknown>;
  if (strings(entity['@type']).includes('Person')) {
    const jobTitle = firstString(entity.jobTitle);
    into.persons.push(...strings(entity.name).map((name) => ({ name, founder, ...(jobTitle ? { jobTitle } : {}) })));
  }
  for (const [key, field] of Object.entries(entity)) {
    // A founder written as a plain name; a founder or employee written as a Person is read below.
    if (key === 'founder' || key === 'employee') {
      into.persons.push(...strings(field).map((name) => ({ name, founder: key === 'founder' })));
      collect(field, into, nesting + 1, key === 'founder');
    } else if (key === 'email') into.emails.push(...strings(field));
    else if (key === 'telephone') into.telephones.push(...strings(field));
    else if (key === 'sameAs') into.sameAs.push(...strings(field));
    else if (!OTHER_PARTIES.has(key)) collect(field, into, nesting + 1);
  }
}

export function readStructuredData($: CheerioAPI): StructuredContacts {
  const found: StructuredContacts = { emails: [], telephones: [], sameAs: [], persons: [] };
  $('script[type="application/ld+json" i]').each((_, script) => {
    collect(parseJson($(script).text()), found);
  });
  // Microdata: an element typed schema.org/Person, not nested under another party's property.
  $('[itemscope][itemtype*="schema.org/Person" i]').each((_, el) => {
    const person = $(el);
    if (OTHER_PARTIES.has(person.attr('itemprop') ?? '')) return;
    const own = (prop: string) => person.find(`[itemprop~="${prop}"]`).first().text().replace(/\s+/g, ' ').trim();
    const name = own('name') || [own('givenName'), own('familyName')].filter(Boolean).join(' ');
    const jobTitle = own('jobTitle');
    if (name) found.persons.push({ name, founder: person.attr('itemprop') === 'founder', ...(jobTitle ? { jobTitle } : {}) });
  });
  return found;
}

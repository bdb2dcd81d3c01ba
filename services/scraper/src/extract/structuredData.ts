import type { CheerioAPI } from 'cheerio';

/** Contact fields a page declares about itself in schema.org JSON-LD. */
export interface StructuredContacts {
  emails: string[];
  telephones: string[];
  sameAs: string[];
  /** Names of the persons it declares: a `Person`, or an organisation's `founder`. */
  persons: string[];
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

function collect(value: unknown, into: StructuredContacts, nesting = 0): void {
  if (nesting > MAX_NESTING) return;
  if (Array.isArray(value)) {
    value.forEach((item) => collect(item, into, nesting + 1));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entity = value as Record<string, unknown>;
  if (strings(entity['@type']).includes('Person')) into.persons.push(...strings(entity.name));
  for (const [key, field] of Object.entries(entity)) {
    if (key === 'founder') into.persons.push(...strings(field));
    if (key === 'email') into.emails.push(...strings(field));
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
  return found;
}

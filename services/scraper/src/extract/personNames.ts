// The people who run a business, when its pages name them: the owner or managing director an
// impressum must name ("Inhaber: ...", "Geschäftsführer: ..."), the name an imprint or a sole
// trader's contact block opens with, a team page's "name / role" pairs, a schema.org Person (or an
// organisation's founder or employee), or the signature under a contact page's greeting. Only a
// labelled name counts: a lead's `name` is a person or empty, never a guess.
import type { PersonRole } from './types.ts';

/** A person one page names, with the role as the page writes it (when it writes one). */
export interface PersonMention {
  name: string;
  role: PersonRole;
  roleText?: string;
}

// Role words, by the role they mean; each is matched whole (a word, or a phrase of them).
const ROLE_WORDS: [PersonRole, string[]][] = [
  ['owner', [
    'inhaber(?:in)?', 'inh\\.?', 'eigent(?:ü|ue)mer(?:in)?', 'co-?owners?', 'owners?', 'proprietor', 'proprietress', 'co-?founders?', 'founders?',
    'gr(?:ü|ue)nder(?:in)?', 'mitgr(?:ü|ue)nder(?:in)?', 'propri[ée]taire', 'fondat(?:eur|rice|ore|rice)', 'titolare', 'propietari[oa]', 'fundador(?:a)?',
    'eigenaar', 'oprichter', 'właściciel(?:ka)?', 'majitel(?:ka)?', 'innehaver', 'eier', 'ägare', 'ejer', 'v/',
  ]],
  ['managing_director', [
    'gesch(?:ä|ae)ftsf(?:ü|ue)hr(?:er|erin|ung|ende[rn]?)', 'managing directors?', 'chief executive(?: officer)?', 'ceo', 'directors?',
    'vorstand(?:svorsitzende[rn]?)?', 'g[ée]rant(?:e)?', 'directeur(?:rice)?(?: g[ée]n[ée]ral(?:e)?)?', 'directrice', 'amministratore(?: unico| delegato)?',
    'administrador(?:a)?', 'director(?:a)? general', 'jednatel(?:ka)?', 'daglig leder', 'prezes(?: zarządu)?', 'directeur', 'bestuurder', 'verkst[äa]llande direkt[öo]r',
  ]],
  ['partner', ['partner(?:in)?s?', 'managing partner', 'gesellschafter(?:in)?', 'teilhaber(?:in)?', 'associ[ée]e?', 'soci[oa]']],
  ['manager', [
    'manager(?:in)?', 'general manager', '(?:office|practice|store|shop|restaurant|branch) manager', 'betriebsleiter(?:in)?', 'filialleiter(?:in)?',
    'praxisleit(?:ung|erin|er)', 'leiter(?:in)?', 'leitung', 'gerente', 'responsable', 'kierownik',
  ]],
  ['other', [
    'vertreten durch', 'vertretungsberechtigt(?:e[rn]?)?', 'verantwortlich(?:e[rn]?)?', 'president', 'chair(?:man|woman|person)?', 'head', 'notar(?:in)?',
    'pr(?:ä|ae)sident(?:in)?', 'vorsitzende[rn]?',
  ]],
];

// A role's rank as a decision-maker: the owner first, then who manages the business for them.
const ROLE_RANK: Record<PersonRole, number> = { owner: 0, managing_director: 1, partner: 2, manager: 3, other: 4 };
export const roleRank = (role: PersonRole): number => ROLE_RANK[role];

const ROLE_PATTERNS = ROLE_WORDS.flatMap(([role, words]) => words.map((word) => ({ role, pattern: new RegExp(`^(?:${word})$`, 'iu') })));

/** The role a text names ("Founder & CEO" -> owner, the best of its parts); undefined when it is no role. */
export function roleOf(text: string): PersonRole | undefined {
  const parts = text.trim().replace(/[.:]+$/u, '').split(/\s*(?:&|\/(?!$)|,|\+|\band\b|\bund\b|\bet\b|\bog\b|\bi\b|\by\b|\be\b)\s*/iu).filter(Boolean);
  if (!parts.length) return undefined;
  let best: PersonRole | undefined;
  for (const part of parts) {
    const found = ROLE_PATTERNS.find(({ pattern }) => pattern.test(part))?.role;
    if (!found) return undefined;
    if (best === undefined || ROLE_RANK[found] < ROLE_RANK[best]) best = found;
  }
  return best;
}

// A label that introduces the people, at the start of a line: these legal labels may be followed by
// the name after a space ("Inh. Britta Ackermann", "v/ Anita Berge"); any other role only after ":"
// or a dash, or on the next line ("Owner Benefits Program" is a heading, not Mr Program).
const SPACED_LABEL = /^(inhaber(?:in)?|inh\.|gesch(?:ä|ae)ftsf(?:ü|ue)hr(?:er|erin|ung|ende[rn]?)|vertreten durch|vertretungsberechtigt(?:e[rn]?)?|g[ée]rant(?:e)?|propri[ée]taire|titolare|propietari[oa]|eigenaar|właściciel(?:ka)?|jednatel|majitel(?:ka)?|daglig leder|innehaver|v\/)\s*(?:[:\-–]\s*|\s+(?=\p{Lu}))(.*)$/iu;
// "Verantwortlich für den Inhalt nach § 55 RStV:" / "Inhaltlich verantwortlich gemäß § 6 MDStV:".
const RESPONSIBLE_LABEL = /^((?:inhaltlich\s+)?verantwortlich(?:e[rn]?)?)(?:\s[^:]{0,60})?:\s*(.*)$/iu;
// "President: ...", "Owner & Chef - ...": a role, then ":" or a dash.
const COLON_LABEL = /^([^:–]{2,40}?)\s*(?::|\s[-–]\s)\s*(.*)$/u;

// "Inhaberin der Praxis ist Britta Ackermann." / "The owner is Jane Doe."
const OWNER_SENTENCE = /\b(inhaber(?:in)?|gesch(?:ä|ae)ftsf(?:ü|ue)hrer(?:in)?|owner|proprietor|founder)\b[^.:]{0,40}?\b(?:ist|is)\s+(.+)$/iu;

// The closing of a letter; the signature is the rest of its line or the next line.
const CLOSING = /^(?:mit )?(?:freundlichen|besten|herzlichen|liebe[n]?) gr(?:ü|ue)(?:ß|ss)en|^(?:kind|best|warm) (?:regards|wishes)|^(?:yours )?sincerely|^cordialement|^cordiali saluti|^saludos/iu;

// Job titles and honorifics written before a name; academic titles stay part of it.
const LEADING_TITLE = /^(?:(?:herr|frau|mr|mrs|ms|miss|notar(?:in)?|rechtsanw(?:a|ä)lt(?:in)?|steuerberater(?:in)?|zahnarzt|zahnärztin|arzt|ärztin)\.?\s+)+/iu;
// Words that make a line a business, a place or a role, not a person.
const NOT_A_PERSON = /\b(?:gmbh|mbh|ag|ug|kg|ohg|gbr|e\.?\s?k|e\.?\s?v|ltd|limited|llc|inc|plc|llp|corp|company|co|sarl|sas|srl|spa|bv|nv|as|ab|oy|sp\.? z|s\.?\s?r\.?\s?o|praxis|team|studio|verlag|restaurant|hotel|straße|strasse|str|weg|platz|road|street|avenue|lane|the|und|and|our|unser|unsere|club|verein|school|schule|church|kirche|society|association|group|gruppe|consulting|services|centre|center|shop|store|caf[ée]|bar|pub|bakery|b(?:ä|ae)ckerei|salon|home|about|kontakt|contact|impressum|imprint|datenschutz|privacy|menu|news|blog|startseite|galerie|gallery|products|produkte|leistungen|preise|prices)\b|\d|@|https?:|www\./iu;
// A name: two to four words, each capitalised (hyphens and apostrophes inside), "Dr." / "Prof." before it.
const PERSON = /^(?:(?:Dr|Prof|Dipl\.-\p{L}+)\.?\s+)*\p{Lu}[\p{Ll}'’-]+(?:\s+(?:(?:von|van|de|der|den|da|di|du|le|la|zu|af)\s+)?\p{Lu}[\p{L}'’-]*\.?){1,3}$/u;
// Degrees written after a dentist's, doctor's or lawyer's name ("Richard B. Shapiro, D.D.S.").
const POSTNOMINAL = /^(?:d\.?d\.?s|d\.?m\.?d|m\.?d|d\.?o|d\.?v\.?m|esq|cpa|ph\.?\s?d)\.?$/iu;

/** The name as a person's, or undefined: titles dropped, trailing roles and punctuation cut. */
export function personName(text: string): string | undefined {
  const name = text
    .split(/\s*(?:[,;|(–]|\s-\s)\s*/u)[0]
    .replace(LEADING_TITLE, '')
    .replace(/[.:]+$/u, '')
    .trim();
  if (name.length < 4 || name.length > 60 || NOT_A_PERSON.test(name) || !PERSON.test(name)) return undefined;
  return name;
}

/** What follows the name on its line ("Jane Doe, Owner" / "Jane Doe (Geschäftsführerin)"), when it is a role. */
function trailingRole(text: string): { role: PersonRole; roleText: string } | undefined {
  const rest = /^[^,;|(–]+?(?:\s*(?:[,;|(–]|\s-\s)\s*)(.+)$/u.exec(text)?.[1]?.replace(/\)\s*$/u, '').trim();
  if (!rest) return undefined;
  const role = roleOf(rest) ?? (POSTNOMINAL.test(rest) ? 'other' : undefined);
  return role ? { role, roleText: rest } : undefined;
}

/** The people a labelled text names: "Anita Berge og Torgeir Berge" is two, each with the label's role. */
function namesAfterLabel(text: string, role: PersonRole, roleText: string): PersonMention[] {
  const own = trailingRole(text);
  const parts = text.split(/\s+(?:und|and|og|och|et|e|y|i|&)\s+/u);
  const names = parts.map((part) => personName(part));
  if (names.some((name) => !name)) return [];
  return names.map((name) => ({ name: name!, ...(own && parts.length === 1 ? own : { role, roleText }) }));
}

const labelText = (label: string) => label.trim().replace(/:+$/u, '').replace(/\s+/g, ' ');

// An imprint's heading: the name under it is the provider the law requires it to name.
const IMPRINT_HEADING = /^(?:impressum|imprint|legal notice|mentions l[ée]gales|colofon|anbieter(?:kennzeichnung)?|angaben gem(?:ä|ae)(?:ß|ss) § ?5 (?:tmg|ddg))$/iu;
// A business register or tax number: the block it ends is a trader's legal identity.
const BUSINESS_ID = /^(?:i[čc]o?|di[čc]|nip|regon|ust-?id(?:nr)?|steuer-?nr|steuernummer|kvk|siret|siren|cvr|org\.?\s?nr|vat|p\.?\s?iva|nif|cif)(?!\p{L})/iu;
// A line of a postal address: a house number with a street, or a postcode with a town.
const ADDRESS_LINE = /\p{L}.*\d|\d{2}-?\d{3}|\d{4,5}\s+\p{L}/u;

/**
 * A line that is a name alone, opening an imprint (under its heading) or a trader's identity block
 * (an address, then a register or tax number): the owner. Two or three words, so "Cukiernia Royal
 * Tomasz Janus" (a business named after its owner) is not taken whole.
 */
function imprintOwner(lines: readonly string[], index: number): PersonMention | undefined {
  const line = lines[index].trim();
  const name = personName(line);
  if (!name || name !== line.replace(LEADING_TITLE, '') || name.split(/\s+/).length > 3) return undefined;
  if (!ADDRESS_LINE.test(lines[index + 1] ?? '')) return undefined;
  const underHeading = IMPRINT_HEADING.test((lines[index - 1] ?? '').trim());
  const identityBlock = lines.slice(index + 1, index + 6).some((next) => BUSINESS_ID.test(next.trim()));
  return underHeading || identityBlock ? { name, role: 'owner' } : undefined;
}

/** People a page's lines name as running the business, with their roles, in page order (repeats included). */
export function personsInLines(lines: readonly string[]): PersonMention[] {
  const persons: PersonMention[] = [];
  lines.forEach((line, index) => {
    const next = lines[index + 1] ?? '';
    const spaced = SPACED_LABEL.exec(line) ?? RESPONSIBLE_LABEL.exec(line);
    const colon = spaced ? undefined : COLON_LABEL.exec(line);
    const label = spaced ?? (colon && roleOf(colon[1]) ? colon : undefined);
    if (label) {
      const roleText = labelText(label[1]);
      const role = roleOf(roleText) ?? 'other';
      // "Geschäftsführer: Max Muster", or the label alone with the name on the next line.
      const text = label[2].trim();
      persons.push(...(text ? namesAfterLabel(text, role, roleText) : namesAfterLabel(next, role, roleText)));
      return;
    }
    const alone = roleOf(line);
    if (alone) {
      // A role alone on its line, the name on the next ("President" / "John Wrench"), unless it is
      // the role of the name above it (a team page's "Maria Lopez" / "Founder" / "Tom Reed").
      const previous = (lines[index - 1] ?? '').trim();
      if (personName(previous) !== previous) persons.push(...namesAfterLabel(next, alone, labelText(line)).slice(0, 1));
      return;
    }
    const sentence = OWNER_SENTENCE.exec(line);
    if (sentence) {
      const found = personName(sentence[2]);
      if (found) persons.push({ name: found, role: roleOf(sentence[1]) ?? 'owner', roleText: sentence[1] });
      return;
    }
    if (CLOSING.test(line)) {
      const rest = line.replace(CLOSING, '').replace(/^[\s,.!]+/u, '');
      const found = rest ? personName(rest) : personName(next);
      if (found) persons.push({ name: found, role: 'other' });
      return;
    }
    const name = personName(line);
    if (!name) return;
    // A team page's pair: the name, then its role on the same line or the next ("Jane Doe" / "Owner").
    const own = trailingRole(line);
    const below = roleOf(next);
    if (own) persons.push({ name, ...own });
    else if (below && next.trim().length <= 60) persons.push({ name, role: below, roleText: labelText(next) });
    else {
      const owner = imprintOwner(lines, index);
      if (owner) persons.push(owner);
    }
  });
  return persons;
}

/** A person schema.org declares (a Person with its jobTitle, an organisation's founder or employee). */
export function structuredPerson(name: string, jobTitle: string | undefined, asFounder: boolean): PersonMention | undefined {
  const found = personName(name);
  if (!found) return undefined;
  if (asFounder) return { name: found, role: 'owner', roleText: jobTitle ?? 'founder' };
  const title = jobTitle?.trim();
  return title ? { name: found, role: roleOf(title) ?? 'other', roleText: title } : { name: found, role: 'other' };
}

// The person behind a business, when its pages name one: the owner or managing director an impressum
// must name ("Inhaber: ...", "Geschäftsführer: ..."), an "Owner:" line, a schema.org Person (or an
// organisation's founder), or the signature under a contact page's greeting. Only a labelled name
// counts: a lead's `name` is a person or empty, never a guess.

// A label that introduces the person: at the start of a line, then ":" / "-" or a line break.
const OWNER_LABEL = new RegExp(
  '^(?:' + [
    'inhaber(?:in)?', 'inh\\.', 'gesch(?:ä|ae)ftsf(?:ü|ue)hr(?:er|erin|ung|ende[rn]?)', 'vertreten durch', 'vertretungsberechtigt(?:e[rn]?)?',
    'verantwortlich(?:e[rn]?)?(?:\\s[^:]{0,60})?', 'owner', 'proprietor', 'founder', 'co-founder', 'managing director', 'director',
    'g[ée]rant(?:e)?', 'propri[ée]taire', 'titolare', 'propietari[oa]', 'eigenaar', 'właściciel(?:ka)?', 'jednatel', 'majitel(?:ka)?',
    'daglig leder', 'innehaver',
  ].join('|') + ')\\s*(?:[:\\-–]\\s*|\\s+(?=\\p{Lu}))(.*)$',
  'iu',
);

// "Inhaberin der Praxis ist Britta Ackermann." / "The owner is Jane Doe."
const OWNER_SENTENCE = /\b(?:inhaber(?:in)?|gesch(?:ä|ae)ftsf(?:ü|ue)hrer(?:in)?|owner|proprietor|founder)\b[^.:]{0,40}?\b(?:ist|is)\s+(.+)$/iu;

// The closing of a letter; the signature is the rest of its line or the next line.
const CLOSING = /^(?:mit )?(?:freundlichen|besten|herzlichen|liebe[n]?) gr(?:ü|ue)(?:ß|ss)en|^(?:kind|best|warm) (?:regards|wishes)|^(?:yours )?sincerely|^cordialement|^cordiali saluti|^saludos/iu;

// Job titles and honorifics written before a name; academic titles stay part of it.
const LEADING_TITLE = /^(?:(?:herr|frau|mr|mrs|ms|miss|notar(?:in)?|rechtsanw(?:a|ä)lt(?:in)?|steuerberater(?:in)?|zahnarzt|zahnärztin|arzt|ärztin)\.?\s+)+/iu;
// Words that make a line a business, a place or a role, not a person.
const NOT_A_PERSON = /\b(?:gmbh|mbh|ag|ug|kg|ohg|gbr|e\.?\s?k|e\.?\s?v|ltd|limited|llc|inc|plc|llp|corp|company|co|sarl|sas|srl|spa|bv|nv|as|ab|oy|sp\.? z|s\.?\s?r\.?\s?o|praxis|team|studio|verlag|restaurant|hotel|straße|strasse|str|weg|platz|road|street|avenue|lane|the|und|and|our|unser|unsere)\b|\d|@|https?:|www\./iu;
// A name: two to four words, each capitalised (hyphens and apostrophes inside), "Dr." / "Prof." before it.
const PERSON = /^(?:(?:Dr|Prof|Dipl\.-\p{L}+)\.?\s+)*\p{Lu}[\p{Ll}'’-]+(?:\s+(?:(?:von|van|de|der|den|da|di|du|le|la|zu|af)\s+)?\p{Lu}[\p{L}'’-]*\.?){1,3}$/u;

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

/** Persons a page's lines name as the business's owner, manager or signatory, in page order. */
export function personsInLines(lines: readonly string[]): string[] {
  const persons: string[] = [];
  lines.forEach((line, index) => {
    const labelled = OWNER_LABEL.exec(line);
    if (labelled) {
      // "Geschäftsführer: Max Muster", or the label alone with the name on the next line.
      const found = personName(labelled[1]) ?? (labelled[1].trim() === '' ? personName(lines[index + 1] ?? '') : undefined);
      if (found) persons.push(found);
      return;
    }
    const sentence = OWNER_SENTENCE.exec(line);
    if (sentence) {
      const found = personName(sentence[1]);
      if (found) persons.push(found);
      return;
    }
    if (CLOSING.test(line)) {
      const rest = line.replace(CLOSING, '').replace(/^[\s,.!]+/u, '');
      const found = rest ? personName(rest) : personName(lines[index + 1] ?? '');
      if (found) persons.push(found);
    }
  });
  return persons;
}

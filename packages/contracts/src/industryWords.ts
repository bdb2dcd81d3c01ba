/**
 * An industry as a user typed it ("dentist", "Pharmacies", "hair salon"), counted in a sentence: the
 * mails, the coverage sentence and the progress of a search say "5 new dentists", "1 pharmacy", never
 * "5 new dentist". Only the last word changes; its case is kept; words with no plural stay as typed.
 */

/** Industries that have no plural, or whose plural is the word itself. */
const NO_PLURAL = new Set([
  'accommodation', 'advertising', 'agriculture', 'catering', 'childcare', 'construction', 'consulting', 'education', 'equipment',
  'estate', 'finance', 'fish', 'fitness', 'food', 'furniture', 'hardware', 'healthcare', 'hospitality', 'insurance', 'it', 'legal',
  'logistics', 'media', 'news', 'police', 'retail', 'seafood', 'security', 'sheep', 'software', 'staff', 'tourism', 'transport',
  'transportation', 'wellness', 'wholesale',
]);

/** Plurals that no ending rule makes. */
const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', chef: 'chefs', roof: 'roofs', chief: 'chiefs', belief: 'beliefs' };
const IRREGULAR_SINGULAR = Object.fromEntries(Object.entries(IRREGULAR).map(([one, many]) => [many, one]));

/** Keeps the case the user typed: "DENTIST" -> "DENTISTS", "Pharmacy" -> "Pharmacies". */
function inCaseOf(typed: string, word: string): string {
  if (typed.length > 1 && typed === typed.toUpperCase()) return word.toUpperCase();
  return typed[0] === typed[0]?.toUpperCase() ? word[0].toUpperCase() + word.slice(1) : word;
}

/** The last word, what precedes it, and the word in lower case; undefined when it has no Latin letters to change. */
function lastWord(phrase: string): { head: string; typed: string; word: string } | undefined {
  const match = /^(.*?)([A-Za-z]+)(\W*)$/.exec(phrase.trim());
  if (!match || match[3]) return undefined;
  return { head: match[1], typed: match[2], word: match[2].toLowerCase() };
}

const isPlural = (word: string): boolean =>
  word in IRREGULAR_SINGULAR || (word.endsWith('s') && !/(ss|us|is)$/.test(word)) || /men$/.test(word);

function pluralOf(word: string): string {
  if (NO_PLURAL.has(word) || word.endsWith('ing') || isPlural(word)) return word;
  if (IRREGULAR[word]) return IRREGULAR[word];
  if (/man$/.test(word)) return `${word.slice(0, -3)}men`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

function singularOf(word: string): string {
  if (NO_PLURAL.has(word) || !isPlural(word)) return word;
  if (IRREGULAR_SINGULAR[word]) return IRREGULAR_SINGULAR[word];
  if (/men$/.test(word)) return `${word.slice(0, -3)}man`;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

const changeLast = (phrase: string, change: (word: string) => string): string => {
  const last = lastWord(phrase);
  return last ? `${last.head}${inCaseOf(last.typed, change(last.word))}` : phrase.trim();
};

/** "dentist" -> "dentists", "pharmacy" -> "pharmacies", "hair salon" -> "hair salons"; "dentists", "software" kept. */
export const industryPlural = (industry: string): string => changeLast(industry, pluralOf);

/** "dentists" -> "dentist", "pharmacies" -> "pharmacy"; a singular or uncountable word kept. */
export const industrySingular = (industry: string): string => changeLast(industry, singularOf);

/** "5 dentists", "1 pharmacy", "1,200 hair salons" ("5 new dentists" with `adjective`): the count in en-US digits, the industry agreeing with it. */
export const countOfIndustry = (count: number, industry: string, adjective?: string): string =>
  `${count.toLocaleString('en-US')} ${adjective ? `${adjective} ` : ''}${count === 1 ? industrySingular(industry) : industryPlural(industry)}`;

/** "1 lead", "5 leads", "1 business", "2 businesses": a count of a plain noun with its plural. */
export const countOf = (count: number, one: string, many = pluralOf(one)): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

import { decodeEntities } from './htmlEntities.ts';
import { normaliseEmail } from './emailAddress.ts';

// How people spell "@" and "." out to hide an address, in the major European languages:
// English, German, French, Spanish/Portuguese, Italian, Dutch, Polish, Czech/Slovak, Scandinavian.
const AT_WORDS = 'at|arobase|arroba|chiocciola|apenstaartje|małpa|malpa|zavináč|zavinac|snabel-?a|@';
const DOT_WORDS = 'dot|punkt|point|punto|ponto|punt|kropka|tečka|tecka|bodka|piste|\\.';

const BRACKETED_AT = new RegExp(`\\s*(?:\\[\\s*(?:${AT_WORDS})\\s*\\]|\\(\\s*(?:${AT_WORDS})\\s*\\)|\\{\\s*(?:${AT_WORDS})\\s*\\}|<\\s*(?:${AT_WORDS})\\s*>)\\s*`, 'giu');
const BRACKETED_DOT = new RegExp(`\\s*(?:\\[\\s*(?:${DOT_WORDS})\\s*\\]|\\(\\s*(?:${DOT_WORDS})\\s*\\)|\\{\\s*(?:${DOT_WORDS})\\s*\\}|<\\s*(?:${DOT_WORDS})\\s*>)\\s*`, 'giu');
const PLAIN = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}/gi;
const SPOKEN_DOT = `\\s+(?:${DOT_WORDS.replace('|\\.', '')})\\s+`;
const SPELLED = new RegExp(
  `([a-z0-9][a-z0-9._%+-]*)\\s+(${AT_WORDS.replace('|@', '')})\\s+([a-z0-9-]+(?:(?:${SPOKEN_DOT}|\\.)[a-z0-9-]+)+)`,
  'giu',
);
const SPELLED_DOT = new RegExp(SPOKEN_DOT, 'giu');
// " dot " is no word of prose; "punkt", "point", "punto"… are, as is the English "at".
const HAS_ENGLISH_DOT = /\s+dot\s+/i;
const EMAIL_LABEL = /\b(?:e-?mail|mail|e-?post|correo|courriel|posta|adres|adresse|sähköposti|kontakt)\b/i;
// Words that stand before " at " in sentences ("reach us at …"), never as a mailbox.
const SENTENCE_WORDS = /^(?:us|me|you|them|him|her|it|we|here|there|now|home|online|today|anytime)$/i;

/**
 * Addresses written in running text, including "[at]"/"(at)"/"[dot]" spellings in the major
 * European languages ("(arroba)", "[punkt]"…) and entities left undecoded ("info&#64;…"). A bare
 * spelled-out "at" is only read as "@" when the domain also spells " dot " or the line labels an
 * email (words such as "arroba" or "chiocciola" need neither), so that "find us at example.com" is not taken for an address.
 */
export function emailsInText(text: string): string[] {
  const readable = decodeEntities(text).replace(BRACKETED_AT, '@').replace(BRACKETED_DOT, '.');
  const found = [...readable.matchAll(PLAIN)].map((match) => match[0]);
  for (const match of readable.matchAll(SPELLED)) {
    const [, mailbox, atWord, domain] = match;
    if (SENTENCE_WORDS.test(mailbox) || /^www\./i.test(domain)) continue;
    const spelledOnPurpose = HAS_ENGLISH_DOT.test(domain) || atWord.toLowerCase() !== 'at';
    if (spelledOnPurpose || EMAIL_LABEL.test(readable.slice(0, match.index))) {
      found.push(`${mailbox}@${domain.replace(SPELLED_DOT, '.')}`);
    }
  }
  return found.flatMap((raw) => normaliseEmail(raw) ?? []);
}

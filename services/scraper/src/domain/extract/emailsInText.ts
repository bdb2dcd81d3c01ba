import { normaliseEmail } from './emailAddress.ts';

const BRACKETED_AT = /\s*(?:\[\s*(?:at|@)\s*\]|\(\s*(?:at|@)\s*\)|\{\s*(?:at|@)\s*\}|<\s*at\s*>)\s*/gi;
const BRACKETED_DOT = /\s*(?:\[\s*(?:dot|\.)\s*\]|\(\s*(?:dot|\.)\s*\)|\{\s*(?:dot|\.)\s*\}|<\s*dot\s*>)\s*/gi;
const PLAIN = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}/gi;
const SPELLED = /([a-z0-9][a-z0-9._%+-]*)\s+at\s+([a-z0-9-]+(?:(?:\s+dot\s+|\.)[a-z0-9-]+)+)/gi;
const SPELLED_DOT = /\s+dot\s+/gi;
const HAS_SPELLED_DOT = /\s+dot\s+/i;
const EMAIL_LABEL = /\b(?:e-?mail|mail|e-?post|correo|courriel)\b/i;
// Words that stand before " at " in sentences ("reach us at …"), never as a mailbox.
const SENTENCE_WORDS = /^(?:us|me|you|them|him|her|it|we|here|there|now|home|online|today|anytime)$/i;

/**
 * Addresses written in running text, including "[at]"/"(at)"/"[dot]" spellings. A bare " at " is
 * only read as "@" when the domain also spells " dot " or the line labels an email, so that
 * "find us at example.com" is not taken for an address.
 */
export function emailsInText(text: string): string[] {
  const readable = text.replace(BRACKETED_AT, '@').replace(BRACKETED_DOT, '.');
  const found = [...readable.matchAll(PLAIN)].map((match) => match[0]);
  for (const match of readable.matchAll(SPELLED)) {
    if (SENTENCE_WORDS.test(match[1]) || /^www\./i.test(match[2])) continue;
    if (HAS_SPELLED_DOT.test(match[2]) || EMAIL_LABEL.test(readable.slice(0, match.index))) {
      found.push(`${match[1]}@${match[2].replace(SPELLED_DOT, '.')}`);
    }
  }
  return found.flatMap((raw) => normaliseEmail(raw) ?? []);
}

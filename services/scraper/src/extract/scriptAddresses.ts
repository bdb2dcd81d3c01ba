import type { CheerioAPI } from 'cheerio';
import { emailsInText } from './emailsInText.ts';

const MAX_SCRIPT = 200_000;
const LITERAL = String.raw`(?:'(?:[^'\\\n]|\\.){0,200}'|"(?:[^"\\\n]|\\.){0,200}")`;
// "moc.elpmaxe@ofni".split("").reverse().join("")
const REVERSED = new RegExp(`(${LITERAL})\\s*\\.\\s*split\\(\\s*(?:''|"")\\s*\\)\\s*\\.\\s*reverse\\(\\s*\\)\\s*\\.\\s*join\\(\\s*(?:''|"")\\s*\\)`, 'g');
// 'info' + '@' + 'example.de': two or more literals glued with "+".
const CONCATENATED = new RegExp(`${LITERAL}(?:\\s*\\+\\s*${LITERAL})+`, 'g');

const unquote = (literal: string): string => literal.slice(1, -1).replace(/\\(.)/g, '$1');

/**
 * Addresses a page's inline scripts assemble to keep them from harvesters: a string reversed with
 * split/reverse/join, or pieces joined with "+" (then document.write or a link's href). Only what
 * such an assembly yields counts: an address standing whole in a script is a library's or a
 * widget's, not something the page shows.
 */
export function scriptAddresses($: CheerioAPI): string[] {
  const found: string[] = [];
  $('script').each((_, element) => {
    const type = ($(element).attr('type') ?? '').toLowerCase();
    if (type && !/javascript|module/.test(type)) return;
    const code = $(element).text().slice(0, MAX_SCRIPT);
    // Both tricks carry the "@" in a literal (reversed or alone).
    if (!code.includes('@') || (!code.includes('reverse') && !code.includes('+'))) return;
    for (const match of code.matchAll(REVERSED)) found.push(...emailsInText([...unquote(match[1])].reverse().join('')));
    for (const match of code.matchAll(CONCATENATED)) {
      const pieces = [...match[0].matchAll(new RegExp(LITERAL, 'g'))].map((piece) => unquote(piece[0]));
      if (pieces.every((piece) => !piece.includes('@') || piece.trim() === '@' || /^[^@]*@$|^@[^@]*$/.test(piece))) {
        found.push(...emailsInText(pieces.join('')));
      }
    }
  });
  return found;
}

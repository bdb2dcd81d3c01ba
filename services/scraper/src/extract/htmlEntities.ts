import { decodeHTML } from 'entities';

const ENTITY = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;

/**
 * Text with character references decoded. The parser decodes a page's entities once; sites that
 * hide an address encode it twice ("info&amp;#64;example.de" shows "info&#64;example.de" in the
 * source, "@" only after a second pass), so what is still an entity after parsing is decoded here.
 */
export function decodeEntities(text: string): string {
  return ENTITY.test(text) ? decodeHTML(text) : text;
}

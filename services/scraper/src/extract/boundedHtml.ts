import * as cheerio from 'cheerio';
import { DomHandler, Parser } from 'htmlparser2';

/** How deep elements may nest before a page is given up: real sites stay far below it. */
export const DEFAULT_MAX_DEPTH = 1_000;

/** A page nests elements deeper than the bound; nothing of it is read. */
export class PageTooDeep extends Error {
  constructor(readonly maxDepth: number) {
    super(`The page nests elements more than ${maxDepth} deep`);
    this.name = 'PageTooDeep';
  }
}

/** Builds the DOM like htmlparser2's own handler, refusing to open an element past `maxDepth`. */
class DepthBoundedHandler extends DomHandler {
  constructor(private readonly maxDepth: number) {
    super(undefined, { xmlMode: false });
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    // tagStack holds the document and every open element.
    if (this.tagStack.length > this.maxDepth) throw new PageTooDeep(this.maxDepth);
    super.onopentag(name, attribs);
  }
}

/**
 * A page for the extraction (htmlparser2, which keeps content HTML5 tree building drops, e.g. a
 * <body> after a <frameset>). The parser's cost grows with the square of the nesting depth, so the
 * depth is bounded while parsing: past it the page is refused before the cost can grow.
 */
export function loadHtml(html: string, maxDepth = DEFAULT_MAX_DEPTH): cheerio.CheerioAPI {
  const handler = new DepthBoundedHandler(maxDepth);
  new Parser(handler, { xmlMode: false, decodeEntities: true }).end(html);
  return cheerio.load(handler.root, { xml: { xmlMode: false, decodeEntities: true } });
}

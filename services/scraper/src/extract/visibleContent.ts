import type { CheerioAPI } from 'cheerio';
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { textOf } from './textOf.ts';
import { inlineCreditStart, isThirdPartyHeading, isThirdPartyLabel } from './thirdPartyMarkers.ts';

export interface PageLink {
  href: string;
  text: string;
}

/** What a visitor sees on a page and can attribute to the business itself. */
export interface VisibleContent {
  /** Rendered text, one entry per line; other organisations' blocks and credits are left out. */
  lines: string[];
  /** Links (a, area) outside those blocks. */
  links: PageLink[];
  /** Cloudflare-obfuscated addresses (hex) outside those blocks. */
  cloudflareEmails: string[];
}

/** Whether CSS shows an element's text mirrored (`direction: rtl` with `unicode-bidi: bidi-override`). */
const mirrors = (declarations: string): boolean => /direction:rtl/.test(declarations) && /unicode-bidi:bidi-override/.test(declarations);

/** Class names and ids whose style sheet rules mirror text: the "reversed address" trick. */
function mirroredSelectors($: CheerioAPI): Set<string> {
  const selectors = new Set<string>();
  const css = $('style').text().toLowerCase().replace(/\s+/g, '');
  if (!css.includes('bidi-override')) return selectors;
  for (const rule of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (!mirrors(rule[2])) continue;
    for (const selector of rule[1].split(',')) {
      const simple = /([.#][\w-]+)$/.exec(selector);
      if (simple) selectors.add(simple[1]);
    }
  }
  return selectors;
}

function isMirrored(el: Element, selectors: Set<string>): boolean {
  const style = el.attribs.style;
  if (style && /bidi/i.test(style) && mirrors(style.toLowerCase().replace(/\s+/g, ''))) return true;
  if (!selectors.size) return false;
  if (el.attribs.id && selectors.has(`#${el.attribs.id.toLowerCase()}`)) return true;
  return (el.attribs.class ?? '').toLowerCase().split(/\s+/).some((name) => name && selectors.has(`.${name}`));
}

const NOT_RENDERED = new Set([
  'script', 'style', 'template', 'head', 'title', 'select', 'option', 'textarea', 'svg', 'math',
  'object', 'embed', 'iframe', 'frame', 'canvas', 'audio', 'video', 'map',
]);

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog',
  'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'main', 'nav', 'noframes',
  'noscript', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
  'tr', 'ul',
]);

const HEADING = /^h([1-6])$/;

/**
 * A block of someone else's contacts: it starts at a heading or "Label:" line and ends when the
 * block that holds it closes (after covering at least one line), at the next heading of the same
 * or higher rank (or any heading, for a label), or when an enclosing block closes.
 */
interface ThirdPartyScope {
  depth: number;
  headingLevel?: number;
  covered: boolean;
}

/** What leaving an element does, decided when entering it. */
interface Exit {
  block: boolean;
  headingLevel?: number;
  /** The block depth of the element that holds it. */
  containerDepth: number;
}

function isHidden(el: Element): boolean {
  if (el.attribs.hidden !== undefined || el.attribs['aria-hidden'] === 'true') return true;
  const style = (el.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

export function readVisibleContent($: CheerioAPI): VisibleContent {
  const lines: string[] = [];
  const links: PageLink[] = [];
  const cloudflareEmails: string[] = [];
  let buffer = '';
  let depth = 0;
  let scope: ThirdPartyScope | undefined;
  const mirrored = mirroredSelectors($);

  const inThirdParty = (): boolean => scope !== undefined || inlineCreditStart(buffer) >= 0;

  const flush = (): void => {
    const line = buffer.replace(/\s+/g, ' ').trim();
    buffer = '';
    if (!line) return;
    if (scope) {
      scope.covered = true;
      return;
    }
    const credit = inlineCreditStart(line);
    const own = credit >= 0 ? line.slice(0, credit).trim() : line;
    if (isThirdPartyLabel(line)) {
      scope = { depth, covered: false };
    } else if (own) {
      lines.push(own);
    }
  };

  // Entering an element does its work before its children, leaving it after them. An explicit
  // stack instead of recursion: a page may nest as deep as the parser allows.
  type Step = { node: AnyNode } | { exit: Exit };
  const enter = (node: AnyNode, steps: Step[]): void => {
    if (isText(node)) {
      buffer += node.data;
      return;
    }
    if (!isTag(node)) return;
    const name = node.name.toLowerCase();
    if (NOT_RENDERED.has(name) || isHidden(node)) return;
    if (name === 'br') {
      flush();
      return;
    }
    // A visitor reads mirrored text the right way round: so do we, and not the source order.
    if (isMirrored(node, mirrored)) {
      buffer += [...textOf(node)].reverse().join('');
      return;
    }
    if ((name === 'a' || name === 'area') && node.attribs.href !== undefined && !inThirdParty()) {
      links.push({ href: node.attribs.href, text: textOf(node).replace(/\s+/g, ' ').trim() });
    }
    if (node.attribs['data-cfemail'] !== undefined && !inThirdParty()) {
      cloudflareEmails.push(node.attribs['data-cfemail']);
    }

    const block = BLOCK.has(name);
    const heading = HEADING.exec(name);
    if (block) {
      flush();
      depth += 1;
    }
    steps.push({ exit: { block, headingLevel: heading ? Number(heading[1]) : undefined, containerDepth: depth - 1 } });
    for (let i = node.children.length - 1; i >= 0; i--) steps.push({ node: node.children[i] });
  };

  const leave = ({ block, headingLevel, containerDepth }: Exit): void => {
    if (headingLevel !== undefined) {
      const text = buffer.replace(/\s+/g, ' ').trim();
      if (isThirdPartyHeading(text)) {
        buffer = '';
        scope = { depth: containerDepth, headingLevel, covered: false };
      } else if (scope && (scope.headingLevel === undefined || headingLevel <= scope.headingLevel)) {
        scope = undefined;
      }
    }
    if (block) {
      flush();
      if (scope && (depth < scope.depth || (depth === scope.depth && scope.covered))) scope = undefined;
      depth -= 1;
    }
  };

  const steps: Step[] = $.root().contents().toArray().reverse().map((node) => ({ node }));
  while (steps.length) {
    const step = steps.pop()!;
    if ('node' in step) enter(step.node, steps);
    else leave(step.exit);
  }
  flush();
  return { lines, links, cloudflareEmails };
}

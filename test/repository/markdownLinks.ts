import path from 'node:path';
import GithubSlugger from 'github-slugger';

/**
 * Where a markdown link points inside the repository, so that `npm test` fails on a link whose page or
 * heading has moved: every relative link's file must exist, and its `#anchor` (or an in-page `#anchor`)
 * must be one of that page's headings as GitHub names them, or an `<a id>` / `<a name>` in it.
 */

/** The text outside fenced code blocks, where a `#` line is a comment, not a heading. */
function outsideFences(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) fence = fence ? undefined : marker;
    else if (!fence) lines.push(line);
  }
  return lines;
}

/** The anchors a page offers: GitHub's slug of each heading (duplicates numbered), and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of outsideFences(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      // GitHub slugs the heading's rendered text: a link's text stays, its target and any tag go.
      anchors.add(slugger.slug(heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')));
    }
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

/** Every link target of a page, fenced code aside: `[text](target)` and `[label]: target`. */
export function linkTargetsOf(text: string): string[] {
  const prose = outsideFences(text).join('\n');
  return [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]),
  ];
}

/**
 * The links of `file` that lead nowhere: a relative target the repository does not have, or an anchor
 * its page lacks. `read` gives a tracked file's text, or undefined when there is no such file.
 */
export function brokenLinks(file: string, text: string, read: (file: string) => string | undefined, isFolder: (dir: string) => boolean): string[] {
  return linkTargetsOf(text).filter((target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return false;
    const [pathPart, anchor] = target.split('#', 2);
    const bare = decodeURI(pathPart.split('?')[0]);
    const resolved = bare === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), bare)).replace(/\/$/, '');
    const page = resolved === file ? text : read(resolved);
    if (page === undefined) return !(resolved === '.' || isFolder(resolved));
    if (!anchor || !resolved.endsWith('.md')) return false;
    return !anchorsOf(page).has(decodeURIComponent(anchor));
  });
}

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { linkTargetsOf } from './markdownLinks.ts';

/**
 * What a tracked file may refer to, so that a clone of the repository, with nothing beside it, is all
 * anyone needs. Each rule answers the offending strings of one file's text.
 *
 * 1. Nothing above the repository: a relative path (`../x`, `../../x`, ...) that, resolved from the
 *    file's folder, climbs out of the repository root.
 * 2. No machine paths: a project folder of a build machine (`/work`), a home directory (`/root`,
 *    `/home/<user>`, `/Users/<user>`), or a Windows profile. System paths that exist on any Debian
 *    machine or image (`/usr/bin/chromium`, `/usr/lib/postgresql`, `/tmp`, `/etc/...`, `/opt/...`)
 *    are fine, and so are URL paths (`https://host/home/x`) and relative ones (`./home/x`). Not
 *    applied to Dockerfiles, whose paths are inside the image, nor to copied third-party material
 *    (fixture pages and responses link their own sites' paths); fixture notes (.md) are checked.
 * 3. No missing documents: a markdown link `[text](target)` in a .md file must resolve to a tracked
 *    file or folder (URLs, mailto: and in-page anchors aside); a document named anywhere
 *    (`SOMETHING.md`, `folder/SOMETHING.md`) must be one the repository has. `SOURCES.md` files are
 *    spared rule 3's naming check: they cite paths in the other repositories fixtures came from.
 */

export interface RepositoryView {
  /** Tracked files, relative to the root, with `/` separators. */
  files: ReadonlySet<string>;
  /** Every folder that holds a tracked file, relative to the root (no trailing `/`). */
  folders: ReadonlySet<string>;
}

/** What a clone of `root` holds: the tracked files (a file deleted in the working tree is left out). */
export function trackedFiles(root: string): string[] | undefined {
  const listing = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (listing.status !== 0) return undefined;
  return listing.stdout.split('\0').filter((file) => file && fs.existsSync(path.join(root, file)));
}

export function repositoryView(files: readonly string[]): RepositoryView {
  const folders = new Set<string>();
  for (const file of files) {
    for (let dir = path.posix.dirname(file); dir !== '.'; dir = path.posix.dirname(dir)) folders.add(dir);
  }
  return { files: new Set(files), folders };
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>)\]]*/gi;
const withoutUrls = (text: string): string => text.replace(URL_PATTERN, ' ');

/** Rule 1: relative paths that leave the repository, resolved from the file's folder. */
export function pathsAboveRoot(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of withoutUrls(text).matchAll(/(?<![\w.~/-])((?:\.\.\/)+)([\w@.-]+)/g)) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1], match[2]));
    if (resolved.startsWith('../')) found.push(`${match[1]}${match[2]}`);
  }
  return found;
}

const MACHINE_PATH = /(?<![\w.~@/-])(?:\/work(?=[/'"`\s)]|$)|\/root\/|\/(?:home|Users)\/[\w.-]+|[A-Z]:\\Users\\)[^\s'"`)\]]*/gm;

/** Rule 2: absolute paths of a particular machine. */
export function machinePaths(file: string, text: string): string[] {
  if (isImageRecipe(file) || isCopiedMaterial(file)) return [];
  return [...withoutUrls(text).matchAll(MACHINE_PATH)].map((match) => match[0]);
}

const isImageRecipe = (file: string): boolean => /(^|\/)(\w+\.)?(Dockerfile|Containerfile)$/.test(file);
const isCopiedMaterial = (file: string): boolean => /(^|\/)test\/fixtures\//.test(file) && !file.endsWith('.md');

/** Rule 3a: markdown links of a .md file whose target the repository does not have. */
export function missingLinkTargets(file: string, text: string, repo: RepositoryView): string[] {
  if (!file.endsWith('.md')) return [];
  return linkTargetsOf(text).filter((target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return false;
    const bare = decodeURI(target.split('#')[0].split('?')[0]);
    const resolved = bare.startsWith('/')
      ? path.posix.normalize(bare.slice(1))
      : path.posix.normalize(path.posix.join(path.posix.dirname(file), bare));
    const clean = resolved.replace(/\/$/, '');
    return !(clean === '.' || repo.files.has(clean) || repo.folders.has(clean));
  });
}

/** Rule 3b: documents named in the text (`X.md`, `dir/X.md`) that the repository does not have. */
export function missingDocuments(file: string, text: string, repo: RepositoryView): string[] {
  if (path.posix.basename(file) === 'SOURCES.md') return [];
  const documents = [...repo.files].filter((tracked) => tracked.endsWith('.md'));
  const names = [...withoutUrls(text).matchAll(/(?<![\w/.-])((?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w.-]+\.md)\b/g)].map((match) => match[1]);
  return names.filter((name) => {
    const relative = path.posix.normalize(path.posix.join(path.posix.dirname(file), name));
    if (repo.files.has(relative)) return false;
    const plain = name.replace(/^\.{0,2}\//, '');
    // Named from the root, or by its trailing path (`fixtures/README.md`) or bare name (`README.md`).
    return !documents.some((doc) => doc === plain || doc.endsWith(`/${plain}`));
  });
}

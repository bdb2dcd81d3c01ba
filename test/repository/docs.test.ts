import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks } from './markdownLinks.ts';
import { repositoryView, trackedFiles } from './referenceRules.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const files = trackedFiles(ROOT);
const lineCount = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').trimEnd().split('\n').length;

describe.skipIf(!files)(`the docs${files ? '' : ' (skipped: not a git checkout; run it in a clone)'}`, () => {
  const repo = repositoryView(files ?? []);
  const read = (file: string) => (repo.files.has(file) ? fs.readFileSync(path.join(ROOT, file), 'utf8') : undefined);

  it('link only to files the repository has, and to headings their pages have', () => {
    const broken = [...repo.files]
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => brokenLinks(file, read(file)!, read, (dir) => repo.folders.has(dir)).map((target) => `${file}: ${target}`));
    expect(broken).toEqual([]);
  });

  // The limits issue 47 set, so the README stays a first page and the architecture stays its shape.
  it('keep the README under 150 lines and docs/architecture.md under 250', () => {
    expect(lineCount('README.md')).toBeLessThan(150);
    expect(lineCount('docs/architecture.md')).toBeLessThan(250);
  });
});

describe('the link rules', () => {
  const pages: Record<string, string> = {
    'docs/a.md': '# A page\n\n## Money and credits\n\n## `npm start` compiled (issue 27)\n\n## Notes\n\n## Notes\n\n```sh\n# not a heading\n```\n<a id="kept"></a>\n',
    'README.md': '# Readme\n',
  };
  const read = (file: string) => pages[file];
  const isFolder = (dir: string) => dir === 'docs';

  it('name headings as GitHub does', () => {
    expect([...anchorsOf(pages['docs/a.md'])]).toEqual(['a-page', 'money-and-credits', 'npm-start-compiled-issue-27', 'notes', 'notes-1', 'kept']);
  });

  it('catch a missing page or heading, not a present one, a folder or a URL', () => {
    const text = pages['docs/a.md'] + '[a](#money-and-credits) [b](../README.md) [c](a.md#notes-1) [d](#kept) [e](https://example.com/x#y) [f](../docs/) [g](mailto:x@example.com)\n'
      + '[h](#gone) [i](missing.md) [j](../README.md#nowhere)\n```\n[k](fenced.md)\n```\n';
    expect(brokenLinks('docs/a.md', text, read, isFolder)).toEqual(['#gone', 'missing.md', '../README.md#nowhere']);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machinePaths, missingDocuments, missingLinkTargets, pathsAboveRoot, repositoryView, trackedFiles } from './referenceRules.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/** Generated or vendored text nobody writes references in, and the rules' own examples. */
const NOT_SCANNED = [
  /(^|\/)node_modules\//,
  /(^|\/)package-lock\.json$/,
  /^test\/repository\/(referenceRules\.ts|standsAlone\.test\.ts|docs\.test\.ts)$/,
];

/** A file's text; a symbolic link's text is its target, so the rules judge where it points. */
function readText(file: string): string | undefined {
  const full = path.join(ROOT, file);
  if (fs.lstatSync(full).isSymbolicLink()) return fs.readlinkSync(full);
  const bytes = fs.readFileSync(full);
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

const files = trackedFiles(ROOT);

describe.skipIf(!files)(`the repository stands alone${files ? '' : ' (skipped: not a git checkout; run it in a clone)'}`, () => {
  const repo = repositoryView(files ?? []);
  const scanned = (files ?? [])
    .filter((file) => !NOT_SCANNED.some((pattern) => pattern.test(file)))
    .flatMap((file) => {
      const text = readText(file);
      return text === undefined ? [] : [{ file, text }];
    });
  const offences = (rule: (file: string, text: string) => string[]) =>
    scanned.flatMap(({ file, text }) => rule(file, text).map((found) => `${file}: ${found}`));

  it('refers to nothing above the repository root', () => {
    expect(offences(pathsAboveRoot)).toEqual([]);
  });

  it('names no path of a particular machine (home folders, a build machine\'s project folder)', () => {
    expect(offences(machinePaths)).toEqual([]);
  });

  it('links, in README and docs, only files the repository has', () => {
    expect(offences((file, text) => missingLinkTargets(file, text, repo))).toEqual([]);
  });

  it('names only documents the repository has', () => {
    expect(offences((file, text) => missingDocuments(file, text, repo))).toEqual([]);
  });

  it('has the fixtures its tests read, with their sources', () => {
    for (const needed of ['services/scraper/test/fixtures/SOURCES.md', 'services/scraper/test/fixtures/README.md']) {
      expect(repo.files.has(needed), needed).toBe(true);
    }
    expect([...repo.files].filter((file) => file.startsWith('services/scraper/test/fixtures/real-sites/') && file.endsWith('/truth.json')).length)
      .toBeGreaterThan(0);
  });
});

describe('the stand-alone rules', () => {
  const repo = repositoryView(['README.md', 'docs/billing.md', 'services/scraper/test/fixtures/README.md', 'services/scraper/src/index.ts']);

  it('catch a path that climbs out of the repository, not one that stays inside', () => {
    expect(pathsAboveRoot('services/scraper/test/x.ts', "new URL('../../../../../shared/fixtures/', import.meta.url)")).toEqual(['../../../../../shared']);
    expect(pathsAboveRoot('services/scraper/test/x.ts', "new URL('../../../README.md', import.meta.url)")).toEqual([]);
    expect(pathsAboveRoot('README.md', 'see ../shared/DESIGN.md')).toEqual(['../shared']);
  });

  it('catch machine paths, not system paths, URL paths or relative ones', () => {
    expect(machinePaths('docs/x.md', 'the sites of `/work/shared/fixtures/real-sites`')).toEqual(['/work/shared/fixtures/real-sites']);
    expect(machinePaths('x.ts', "const key = '/root/.ssh/id_rsa'; const dir = '/home/alice/leadforge';")).toHaveLength(2);
    expect(machinePaths('x.ts', String.raw`C:\Users\bob\leadforge`)).toHaveLength(1);
    const fine = "'/usr/bin/chromium' '/usr/lib/postgresql/15/bin' '/tmp/x' '/etc/containers' https://example.com/home/me/x ./home/Faq '/opt/kafka' /workspace";
    expect(machinePaths('x.ts', fine)).toEqual([]);
    expect(machinePaths('deploy/docker/service.Dockerfile', 'WORKDIR /home/node/app')).toEqual([]);
    expect(machinePaths('services/scraper/test/fixtures/real-sites/a/index.html', '<a href="/home/about">')).toEqual([]);
  });

  it('catch links and document names the repository does not have', () => {
    expect(missingLinkTargets('docs/x.md', '[a](billing.md) [b](../README.md#quick-start) [c](https://example.com/x.md) [d](#here) [e](../services/scraper/src/)', repo)).toEqual([]);
    expect(missingLinkTargets('README.md', '[design](DESIGN.md) [gone](docs/gone.md)', repo)).toEqual(['DESIGN.md', 'docs/gone.md']);
    expect(missingDocuments('packages/kit/src/x.ts', '/** (DESIGN.md section 4) */', repo)).toEqual(['DESIGN.md']);
    expect(missingDocuments('services/scraper/test/x.ts', 'see fixtures/README.md and docs/billing.md, README.md', repo)).toEqual([]);
    expect(missingDocuments('services/scraper/test/fixtures/SOURCES.md', 'other/repo docs/api_examples/response.md@abc', repo)).toEqual([]);
  });
});

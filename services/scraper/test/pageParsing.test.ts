import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageGivenUp, type GiveUpReason } from '../src/crawl/pageGivenUp.ts';
import type { PageReader } from '../src/crawl/pageReader.ts';
import { HOSTILE_HOSTS, hostilePage } from './fixtureWeb/hostilePages.ts';
import { testPageReader } from './support/testPageReader.ts';

const plainHome = '<html><body><h1>Bright Dental</h1><p>Email: desk@bright-dental.co.uk, tel 020 7946 0123</p><a href="/kontakt">Kontakt</a></body></html>';

async function givenUp(reading: Promise<unknown>): Promise<PageGivenUp> {
  const error = await reading.then(() => undefined, (failure: unknown) => failure);
  expect(error).toBeInstanceOf(PageGivenUp);
  return error as PageGivenUp;
}

describe('reading pages in the parsing workers', () => {
  const counted: GiveUpReason[] = [];
  let parsing: ReturnType<typeof testPageReader>;
  let reader: PageReader;

  beforeAll(() => {
    parsing = testPageReader({ onGivenUp: (_url, reason) => counted.push(reason) });
    reader = parsing.reader;
  });
  afterAll(async () => { await parsing?.release(); });

  it('reads a home page: its contacts, the contact pages it links to, its frames and its first-level links', async () => {
    const home = await reader.readHome('https://bright-dental.co.uk/', plainHome, 'GB', 3);
    expect(home).toEqual({
      contacts: { emails: ['desk@bright-dental.co.uk'], phones: ['+442079460123'], socials: [], persons: [] },
      contactPages: [{ url: 'https://bright-dental.co.uk/kontakt', score: 3 }],
      frames: [],
      navigation: [],
    });
  });

  it('gives up a page nested 400,000 deep (1.95 MB) at the depth bound, and counts it', async () => {
    const page = hostilePage(HOSTILE_HOSTS.nested, '/')!;
    expect(page.length).toBeGreaterThan(1.9 * 1024 * 1024);
    const error = await givenUp(reader.readPage(`http://${HOSTILE_HOSTS.nested}/`, page, 'GB'));
    expect(error).toMatchObject({ reason: 'too_deep', url: `http://${HOSTILE_HOSTS.nested}/` });
    expect(error.message).toBe('The page nests elements more than 1000 deep; it was given up');
    expect(counted).toContain('too_deep');
  });

  it('reads a page nested as deep as the bound allows without recursing (no stack overflow)', async () => {
    const deep = testPageReader({ maxDepth: 6_000 });
    try {
      const contacts = await deep.reader.readPage(`http://${HOSTILE_HOSTS.nested5000}/`, hostilePage(HOSTILE_HOSTS.nested5000, '/')!, 'GB');
      expect(contacts).toEqual({ emails: [`hello@${HOSTILE_HOSTS.nested5000}`], phones: ['+442079460555'], socials: [], persons: [] });
      const summary = await deep.reader.summarise(`http://${HOSTILE_HOSTS.nested5000}/`, 200, `<title>Deep</title>${'<span><a href="/x">'.repeat(2_000)}call +44 20 7946 0555`);
      expect(summary).toMatchObject({ title: 'Deep', phones: ['+442079460555'], links: [`http://${HOSTILE_HOSTS.nested5000}/x`] });
    } finally {
      await deep.release();
    }
  });

  it('gives up a page over its time budget, recycles the worker, and reads the next page', async () => {
    const hurried = testPageReader({ timeoutMs: 1 });
    try {
      const long = `<html><body>${'<p>Opening hours: Monday to Friday, 9 to 5. Call 020 7946 0123.</p>'.repeat(20_000)}</body></html>`;
      const error = await givenUp(hurried.reader.readPage('https://slow.example/', long, 'GB'));
      expect(error).toMatchObject({ reason: 'timeout', message: 'The page took longer than 1 ms to read; it was given up' });
    } finally {
      await hurried.release();
    }
    // The same pool, its worker replaced, with the usual budget.
    expect((await reader.readHome('https://bright-dental.co.uk/', plainHome, 'GB', 3)).contacts.emails).toEqual(['desk@bright-dental.co.uk']);
  });
});

describe('the parsing workers load the TypeScript however the process was started', () => {
  const probe = new URL('./support/parsePageProbe.ts', import.meta.url).pathname;
  const tsxLoader = createRequire(import.meta.url).resolve('tsx/esm').replace(/esm\/index\.[cm]?js$/, 'loader.mjs');
  const starts: [string, string[]][] = [
    ['node --import tsx (tests, benchmarks, scripts)', ['--import', 'tsx', probe]],
    ['node --import <tsx loader path> (the container image)', ['--import', tsxLoader, probe]],
    ['tsx registered in code (start:distributed\'s launcher)', [new URL('./support/registerTsxThenProbe.mjs', import.meta.url).pathname]],
  ];
  for (const [how, args] of starts) {
    it(how, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 60_000 });
      expect(JSON.parse(stdout)).toEqual({ emails: ['desk@bright-dental.co.uk'], phones: [], socials: [], persons: [] });
    }, 90_000);
  }
});

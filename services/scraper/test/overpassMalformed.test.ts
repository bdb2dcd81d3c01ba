import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';

type Answer = (res: http.ServerResponse) => void;

/** A provider stand-in (Overpass, Google Places) on loopback that answers every query with the body `answer` writes. */
async function standInProvider(): Promise<{ url: string; answer: Answer; close(): Promise<void> }> {
  const stand: { answer: Answer } = { answer: (res) => res.end() };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => stand.answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stand, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}

const truncatedJson = '{"version":0.6,"generator":"Overpass API","elements":[{"type":"node","id":1,"lat":51.5,"lon":-0.1,"tags":{"name":"Cut';

const answers: [string, Answer, RegExp][] = [
  ['truncated JSON', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(truncatedJson);
  }, /^Overpass API error: the answer is incomplete JSON/],
  ['JSON cut off short of its Content-Length', (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(truncatedJson.length + 500) });
    res.write(truncatedJson);
    res.socket?.destroy();
  }, /^Could not fetch 127\.0\.0\.1:\d+/],
  ['a binary body', (res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x80, 0x81]));
  }, /^Overpass API error: the answer is binary/],
  ['a binary body declared as JSON', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.from([0x00, 0x01, 0xc3, 0x28, 0xff, 0x00, 0x7b]));
  }, /^Overpass API error: the answer is binary/],
];

describe('a truncated or binary Overpass answer fails the search at once, nothing found', () => {
  let web: FixtureWeb;
  let overpass: Awaited<ReturnType<typeof standInProvider>>;
  let scraper: ScraperUnderTest;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 5 });
    overpass = await standInProvider();
    scraper = await startScraperUnderTest({ kind: 'pglite', web, env: { OVERPASS_URL: overpass.url, SCRAPER_MAX_RETRIES: '0' } });
  });
  afterAll(async () => {
    await scraper?.stop();
    await overpass?.close();
    await web?.close();
  });

  answers.forEach(([name, answer, error], i) => {
    it(`${name}: source_failed with the reason, long before the deadline`, async () => {
      overpass.answer = answer;
      await scraper.requestSearch({ search_id: `malformed-${i}`, quantity: 5, deadlineInMs: 120_000 });
      // The deadline is two minutes away: finishing within the wait means it failed at once.
      const finished = await scraper.finished(`malformed-${i}`, 20_000);
      expect(finished.data).toMatchObject({ reason: 'source_failed', stats: { total_found: 0 } });
      expect(finished.data.error).toMatch(error);
      expect(finished.data.error).not.toMatch(/\u0000/);
    });
  });
});

describe('a provider error quoting binary content still finishes the search', () => {
  let web: FixtureWeb;
  let google: Awaited<ReturnType<typeof standInProvider>>;
  let scraper: ScraperUnderTest;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 5 });
    google = await standInProvider();
    google.answer = answers[2][1];
    scraper = await startScraperUnderTest({ kind: 'pglite', web, env: { PLACES_SOURCE: 'google', GOOGLE_PLACES_API_KEY: 'test-key', GOOGLE_PLACES_API_BASE: google.url } });
  });
  afterAll(async () => {
    await scraper?.stop();
    await google?.close();
    await web?.close();
  });

  it('source_failed, the NUL bytes of the quoted answer replaced (PostgreSQL refuses them)', async () => {
    await scraper.requestSearch({ search_id: 'google-binary', quantity: 5, deadlineInMs: 120_000 });
    const finished = await scraper.finished('google-binary', 20_000);
    expect(finished.data).toMatchObject({ reason: 'source_failed', stats: { total_found: 0 } });
    expect(finished.data.error).toMatch(/^Google Places API error: /);
    expect(finished.data.error).not.toMatch(/\u0000/);
  });
});

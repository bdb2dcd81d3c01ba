import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '@leadforge/kit/events';
import { waitFor } from '@leadforge/testing';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';
import { recordSearch } from '../src/search/jobStore.ts';

// leads.search and auth.user are two topics with no order between them: a search requested just
// before an account's deletion can reach the scraper after its erasure, and must not be kept.
describe('account erasure in the scraper', () => {
  let web: FixtureWeb;
  let scraper: ScraperUnderTest;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 4 });
    scraper = await startScraperUnderTest({ kind: 'pglite', web });
  });
  afterAll(async () => {
    await scraper?.stop();
    await web?.close();
  });

  it('never stores a search of an account that arrives after the account was erased', async () => {
    const db = scraper.svc.ctx.db;
    await db.transaction((trx) => emitEvent(trx, 'account.deleted', 'user-gone', { user_id: 'user-gone', email_sha256: 'x'.repeat(64), deleted_at: new Date().toISOString() }));
    await waitFor(() => db('erased_accounts').where({ user_id: 'user-gone' }).first(), { what: 'the erasure of user-gone' });

    const late = { search_id: 'late-search', user_id: 'user-gone', industry: 'dentist', location: 'London', quantity: 5, deadline_at: new Date(Date.now() + 60_000).toISOString() };
    await db.transaction((trx) => recordSearch(trx, late));
    const live = { ...late, search_id: 'live-search', user_id: 'user-live' };
    await db.transaction((trx) => recordSearch(trx, live));

    const jobs = await db('scraper_jobs').whereIn('search_id', ['late-search', 'live-search']).pluck('search_id');
    expect(jobs).toEqual(['live-search']);
  });
});

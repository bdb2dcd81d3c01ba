import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { Value } from 'typebox/value';
import { Lead, type EngineLead } from '@leadforge/contracts';
import type { Static } from 'typebox';
import { createTestDatabase, postgresConfigured, type TestDatabase, type TestDatabaseKind } from '@leadforge/testing';
import type { Db } from '@leadforge/kit/db';
import { Mailer } from '@leadforge/kit/mail';
import pino from 'pino';
import { takeLeads } from '../src/domain/leadIntake.ts';
import { toLead, type LeadRow } from '../src/domain/leadRows.ts';
import { businessKeysOf } from '../src/domain/businessKeys.ts';
import { toStoredLead } from '../src/domain/leadFields.ts';
import { decideOptOut, requestOptOut } from '../src/domain/optOuts.ts';
import { SEARCH_MAILS } from '../src/mail/searchMails.ts';
import { suppressionsFor } from '../src/domain/suppressions.ts';
import type { SearchRow } from '../src/domain/searchRecord.ts';

type IncomingLead = Static<typeof EngineLead>;

const MIGRATIONS = new URL('../src/db/migrations', import.meta.url).pathname;
const WINDOW_DAYS = 90;

// Small pools, so generated leads and opt-outs often meet (the same email, phone or site).
const emails = ['', 'mail@some-practice.de', 'Mail@Some-Practice.DE', 'anna@praxis.some-practice.de', 'hi@other.example', 'not-an-email', ' '];
const phones = ['', '+4930123456', '+49 30 123456', '030 123456', '+15550100001', 'call us'];
const websites = ['', 'https://some-practice.de/', 'http://www.some-practice.de/team', 'https://other.example/', 'javascript:alert(1)', 'not a url'];
const keys = ['osm:node/1', 'osm:node/2', 'osm:way/3', ''];
const fetchTimes = ['2026-01-02T03:04:05.000Z', '2026-01-02', '', 'not a date'];
const texts = ['', ' ', 'Some Practice', 'Other Shop\u202e'];

const optionalOf = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
/** Scraped text is hostile: any characters, NUL and lone surrogates included. */
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('\u0000', 'a\ud800b', '\udfff', '\u202e'));
const pooledOrAny = (values: readonly string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: anyText });

const engineLead: fc.Arbitrary<IncomingLead> = fc.record({
  key: pooledOrAny(keys),
  name: pooledOrAny(texts),
  company: pooledOrAny(texts),
  email: pooledOrAny(emails),
  phone: pooledOrAny(phones),
  website: pooledOrAny(websites),
  city: pooledOrAny(['', 'Leipzig']),
  address: fc.option(pooledOrAny(['', 'Main St 1']), { nil: undefined }),
  country: fc.option(pooledOrAny(['', 'DE']), { nil: undefined }),
  socials: fc.option(fc.array(fc.record({ network: pooledOrAny(['facebook', '']), url: pooledOrAny(['https://facebook.com/x', 'javascript:x', 'https://x.example/\ud800']) }), { maxLength: 3 }), { nil: undefined }),
  source: fc.option(pooledOrAny(['', 'osm']), { nil: undefined }),
  place_id: fc.option(pooledOrAny(['', 'node/1']), { nil: undefined }),
  email_deliverability: optionalOf(['deliverable', 'undeliverable', 'accept_all', 'unknown'] as const),
  email_type: optionalOf(['personal', 'role', 'free_mail', 'disposable'] as const),
  email_checked_at: fc.option(pooledOrAny(fetchTimes), { nil: undefined }),
  email_mx_host: fc.option(pooledOrAny(['', 'mx.some-practice.de']), { nil: undefined }),
  email_smtp_code: optionalOf([250, 550, 451]),
  email_source: fc.option(pooledOrAny(['', 'https://some-practice.de/impressum']), { nil: undefined }),
  email_fetched_at: fc.option(pooledOrAny(fetchTimes), { nil: undefined }),
  phone_type: fc.option(pooledOrAny(['', 'mobile', 'fixed_line']), { nil: undefined }),
  phone_display: fc.option(pooledOrAny(['', '+49 30 123456']), { nil: undefined }),
  phone_source: fc.option(pooledOrAny(['', 'https://some-practice.de/kontakt']), { nil: undefined }),
  phone_fetched_at: fc.option(pooledOrAny(fetchTimes), { nil: undefined }),
  owned: optionalOf([true, false]),
  emails: optionalOf([[], ['x@some-practice.de']]),
  phones: optionalOf([[], ['+4930123456']]),
}, { requiredKeys: ['key', 'name', 'company', 'email', 'phone', 'website', 'city'] });

/** Opt-out requests as a person sends them, then an administrator's decision on each (if any). */
const optOut = fc.record({
  request: fc.oneof(
    fc.record({ email: fc.constantFrom(...emails.filter((e) => e.trim())) }),
    fc.record({ phone: fc.constantFrom('+4930123456', '+15550100001') }),
    fc.record({ website: fc.constantFrom('some-practice.de', 'https://www.some-practice.de/team', 'https://other.example/') }),
  ),
  decision: fc.constantFrom(undefined, 'approve', 'reject', 'lift'),
});

const scenario = fc.record({
  leads: fc.array(engineLead, { minLength: 1, maxLength: 8 }),
  optOuts: fc.array(optOut, { maxLength: 4 }),
  ownedKeys: fc.subarray([...keys.map((k) => `place:${k}`), 'site:some-practice.de', 'site:other.example']),
  includeOwned: fc.boolean(),
  windowDays: fc.constantFrom(0, WINDOW_DAYS),
  quantity: fc.integer({ min: 1, max: 10 }),
  alreadyDelivered: fc.integer({ min: 0, max: 2 }),
});

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  const skipped = kind === 'postgres' && !postgresConfigured;
  describe.skipIf(skipped)(`lead intake on ${kind}, any leads against any suppressions and ownership${skipped ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let tdb: TestDatabase;
    beforeAll(async () => {
      tdb = await createTestDatabase(`leads_intake_${kind}`, MIGRATIONS, kind);
    });
    afterAll(async () => tdb?.close());

    it('stores what it may and never throws; nothing suppressed is stored, and what is stored reads back as a valid lead', async () => {
      await fc.assert(fc.asyncProperty(scenario, async (s) => {
        // Each case in its own transaction, rolled back: the cases do not see each other.
        const trx = await tdb.db.transaction();
        try {
          const userId = `user-${uuidv7()}`;
          const earlier = uuidv7();
          const id = uuidv7();
          const deadline = new Date(Date.now() + 60_000);
          await trx('lead_searches').insert([
            { id: earlier, user_id: userId, industry: 'Dentists', location: 'Leipzig', quantity: 1, status: 'completed', deadline_at: deadline, finished_at: new Date() },
            { id, user_id: userId, industry: 'Dentists', location: 'Leipzig', quantity: s.quantity + s.alreadyDelivered, status: 'running', include_owned: s.includeOwned, deadline_at: deadline },
          ]);
          if (s.ownedKeys.length) await trx('owned_businesses').insert(s.ownedKeys.map((business_key) => ({ user_id: userId, business_key, search_id: earlier })));
          for (const { request, decision } of s.optOuts) {
            // The confirmation email is queued in the same transaction; nothing sends it here.
            const mail = new Mailer({
              db: tdb.db, service: 'leads', config: { mailFrom: 'Leadforge <hello@leadforge.test>', retryBaseMs: 60_000 },
              kit: { dataDir: ':memory:', publicUrl: 'http://127.0.0.1:5999' }, log: pino({ level: 'silent' }), templates: SEARCH_MAILS,
            });
            const deps = { db: trx as unknown as Db, clock: () => new Date(), publicUrl: 'http://127.0.0.1:5999', mail };
            const { emailOptOutId, reviewOptOutId } = await requestOptOut(deps, request);
            // An approval stands for the owner's confirmation of an email (its link is in the mail alone).
            if (emailOptOutId && decision === 'approve') await trx('opt_outs').where({ id: emailOptOutId }).update({ status: 'applied' });
            // A decision the request's status does not allow is a 409: the request stays as it was.
            if (decision && reviewOptOutId) await decideOptOut(trx as unknown as Db, reviewOptOutId, decision).catch((err) => expect(err.statusCode).toBe(409));
          }
          if (s.alreadyDelivered) {
            await trx('leads').insert(Array.from({ length: s.alreadyDelivered }, (_, i) => ({
              search_id: id, position: i + 1, lead_key: `earlier-${i}`, fingerprint: `earlier-${i}`, name: '', company: `Earlier ${i}`, email: '', phone: '', website: '', city: '',
            })));
            await trx('lead_searches').where({ id }).update({ leads_count: s.alreadyDelivered });
          }
          const search: SearchRow = await trx('lead_searches').where({ id }).first();

          const updated = await takeLeads(trx, search, s.leads, s.windowDays);

          const rows: (LeadRow & { lead_key: string })[] = await trx('leads').where({ search_id: id }).orderBy('position');
          expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
          expect(updated.leads_count).toBe(rows.length);
          expect(updated.leads_count).toBeLessThanOrEqual(search.quantity);
          expect(updated.owned_count).toBe(rows.filter((r) => r.owned).length);

          // What the opt-outs suppress among everything the engine sent.
          const suppressions = await suppressionsFor(trx, s.leads.map(toStoredLead));
          for (const row of rows.slice(s.alreadyDelivered)) {
            expect(suppressions.emailSuppressed(row.email)).toBe(false);
            expect(suppressions.phoneSuppressed(row.phone)).toBe(false);
            expect(suppressions.siteSuppressed(row)).toBe(false);
            expect(row.owned).toBe(s.windowDays > 0 && businessKeysOf({ placeKey: row.lead_key, website: row.website }).some((k) => s.ownedKeys.includes(k)));
            expect([...Value.Errors(Lead, toLead(row))]).toEqual([]);
          }
          // What the live feed announced is what the API promises: valid leads.
          const fed = await trx('search_feed').where({ search_id: id, type: 'leads' }).select('data');
          for (const { data } of fed) {
            for (const lead of (typeof data === 'string' ? JSON.parse(data) : data).leads) expect([...Value.Errors(Lead, lead)]).toEqual([]);
          }
        } finally {
          await trx.rollback();
        }
      }), { numRuns: 100 });
    }, 120_000);
  });
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresConfigured, type TestDatabase, type TestDatabaseKind } from '@leadforge/testing';

const MIGRATIONS = new URL('../src/db/migrations', import.meta.url).pathname;
const OWNERSHIP_KEYS = '013_ownership_keys.sql';

/**
 * Migration 013 on a database holding claims made before it: each claimed lead's phone and its
 * website's domain become keys of the same claim, so a business bought then is not charged again
 * when another source finds it by its phone.
 */
for (const kind of ['pglite', 'postgres'] as TestDatabaseKind[]) {
  const skipped = kind === 'postgres' && !postgresConfigured;
  describe.skipIf(skipped)(`ownership keys of the claims made before them, on ${kind}${skipped ? ' (skipped: no PostgreSQL)' : ''}`, () => {
    let before: string;
    let t: TestDatabase;

    beforeAll(async () => {
      // The migrations as they stood before 013.
      before = fs.mkdtempSync(path.join(os.tmpdir(), 'leads-before-013-'));
      for (const file of fs.readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql') && name < OWNERSHIP_KEYS)) {
        fs.copyFileSync(path.join(MIGRATIONS, file), path.join(before, file));
      }
      t = await createTestDatabase('leads', before, kind);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      fs.rmSync(before, { recursive: true, force: true });
    });

    it('keeps each claim under its lead\'s phone and its website\'s domain, from the same search and time; opted-out phones and platforms\' pages aside', async () => {
      const { db } = t;
      const searchId = randomUUID();
      const acquired = new Date('2026-10-01T10:00:00Z');
      await db('lead_searches').insert({ id: searchId, user_id: 'user-1', industry: 'Dentists', location: 'Gilău', quantity: 4, status: 'completed', leads_count: 4, deadline_at: acquired, finished_at: acquired });
      const leads = [
        { key: 'google:ChIJ1', phone: '+40 264 300 577', website: '' },
        { key: 'google:ChIJ2', phone: '0264 300 578', website: 'https://www.dent-0578.ro/contact' },
        { key: 'google:ChIJ3', phone: '+40264300579', website: 'https://www.facebook.com/dent0579' },
        { key: 'google:ChIJ4', phone: '', website: '' },
      ];
      await db('leads').insert(leads.map((lead, i) => ({
        search_id: searchId, position: i + 1, lead_key: lead.key, fingerprint: lead.key, name: '', company: `Cabinet ${i}`, email: '', phone: lead.phone, website: lead.website, city: 'Gilău',
      })));
      await db('owned_businesses').insert([
        ...leads.map((lead) => ({ user_id: 'user-1', business_key: `place:${lead.key}`, search_id: searchId, acquired_at: acquired })),
        { user_id: 'user-1', business_key: 'site:dent-0578.ro/contact', search_id: searchId, acquired_at: acquired },
        { user_id: 'user-1', business_key: 'site:facebook.com/dent0579', search_id: searchId, acquired_at: acquired },
      ]);
      await db('opt_outs').insert({ id: randomUUID(), phone: '+40264300579', status: 'applied' });

      await db.raw(fs.readFileSync(path.join(MIGRATIONS, OWNERSHIP_KEYS), 'utf8'));

      const rows: { business_key: string; search_id: string; acquired_at: Date }[] = await db('owned_businesses').where({ user_id: 'user-1' }).orderBy('business_key');
      expect(rows.map((row) => row.business_key)).toEqual([
        'phone:+40264300577',
        'place:google:ChIJ1', 'place:google:ChIJ2', 'place:google:ChIJ3', 'place:google:ChIJ4',
        'site:dent-0578.ro', 'site:dent-0578.ro/contact', 'site:facebook.com/dent0579',
      ]);
      for (const row of rows) {
        expect(row.search_id).toBe(searchId);
        expect(new Date(row.acquired_at).toISOString()).toBe(acquired.toISOString());
      }
    });
  });
}

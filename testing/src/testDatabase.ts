import crypto from 'node:crypto';
import knexFactory from 'knex';
import { migrate, openDatabase, type Db } from '@leadforge/kit/db';

/** The Postgres server tests may use (CI sets DATABASE_URL); unset means PGlite only. */
export const testPostgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
export const postgresConfigured = Boolean(testPostgresUrl);

export interface FreshPostgres {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the test Postgres server; `drop` removes it. */
export async function createFreshPostgres(label: string): Promise<FreshPostgres> {
  if (!testPostgresUrl) throw new Error('no Postgres configured for tests (DATABASE_URL)');
  const name = `lf_test_${label.replace(/[^a-z0-9_]/gi, '_')}_${crypto.randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = knexFactory({ client: 'pg', connection: testPostgresUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}

export interface TestDatabase {
  db: Db;
  url?: string;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/** A fresh, migrated database: on the test Postgres server when configured, else in-memory PGlite. */
export async function createTestDatabase(service: string, migrationsDir?: string, kind?: 'postgres' | 'pglite'): Promise<TestDatabase> {
  const usePostgres = kind ? kind === 'postgres' : postgresConfigured;
  if (!usePostgres) {
    const db = openDatabase({ service });
    await migrate(db, migrationsDir);
    return { db, kind: 'pglite', close: () => db.destroy() };
  }
  const fresh = await createFreshPostgres(service);
  const db = openDatabase({ service, url: fresh.url });
  await migrate(db, migrationsDir);
  return {
    db,
    url: fresh.url,
    kind: 'postgres',
    async close() {
      await db.destroy();
      await fresh.drop();
    },
  };
}

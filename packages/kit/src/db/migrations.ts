import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Db } from './database.ts';

interface SqlMigration { name: string; file: string }

/** Reads plain `.sql` migrations from folders, in order; the same SQL runs on PGlite and Postgres. */
class SqlMigrationSource implements Knex.MigrationSource<SqlMigration> {
  constructor(private readonly dirs: string[]) {}

  async getMigrations(): Promise<SqlMigration[]> {
    return this.dirs.flatMap((dir) => fs.readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => ({ name: f, file: path.join(dir, f) })));
  }

  getMigrationName(m: SqlMigration): string {
    return m.name;
  }

  async getMigration(m: SqlMigration): Promise<Knex.Migration> {
    const sql = fs.readFileSync(m.file, 'utf8');
    return {
      up: (knex: Knex) => knex.raw(sql),
      down: async () => { throw new Error(`migration ${m.name} is forward-only`); },
    };
  }
}

/**
 * Every migration file recorded as run, and nothing else: the usual start, answered with two queries
 * instead of knex's migrator (~85 ms of CPU a service on PGlite). Anything else goes to knex, which
 * runs what is pending and refuses a database that recorded migrations the folders no longer have.
 */
async function upToDate(db: Db, dirs: string[]): Promise<boolean> {
  if (!(await db.schema.hasTable('schema_migrations'))) return false;
  const recorded = (await db('schema_migrations').select('name')).map((r: { name: string }) => r.name).sort();
  const files = (await new SqlMigrationSource(dirs).getMigrations()).map((m) => m.name).sort();
  return recorded.length === files.length && recorded.every((name, i) => name === files[i]);
}

const KIT_MIGRATIONS = new URL('./migrations', import.meta.url).pathname;

/** Any fixed number: every process migrating one database takes this advisory lock. */
const MIGRATION_LOCK_KEY = 7_231_004;

/**
 * Runs the kit's own tables (outbox, handled events, dead letters) and then the service's.
 * knex's migration lock lives in a table the first migration creates, so replicas starting together
 * on an empty Postgres database would race to create it; a session advisory lock, held on one
 * connection of the pool while the migrations run on another, serialises them from the first statement.
 */
export async function migrate(db: Db, serviceMigrationsDir?: string): Promise<void> {
  const dirs = [KIT_MIGRATIONS, ...(serviceMigrationsDir ? [serviceMigrationsDir] : [])];
  if (await upToDate(db, dirs)) return;
  const run = () => db.migrate.latest({ migrationSource: new SqlMigrationSource(dirs), tableName: 'schema_migrations' });
  // PGlite is one process's single connection: nothing to race with.
  if (db.client.config.client !== 'pg') {
    await run();
    return;
  }
  const connection = await db.client.acquireConnection();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await run();
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}

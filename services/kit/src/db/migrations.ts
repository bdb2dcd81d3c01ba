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

const KIT_MIGRATIONS = new URL('./migrations', import.meta.url).pathname;

/** Runs the kit's own tables (outbox, handled events, dead letters) and then the service's. */
export async function migrate(db: Db, serviceMigrationsDir?: string): Promise<void> {
  const dirs = [KIT_MIGRATIONS, ...(serviceMigrationsDir ? [serviceMigrationsDir] : [])];
  await db.migrate.latest({ migrationSource: new SqlMigrationSource(dirs), tableName: 'schema_migrations' });
}

import { createRequire } from 'node:module';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { EmbeddedEngineOptions } from './embeddedEngine.ts';

// Postgres bigint (count(*), sums) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export type Db = Knex;

export interface DatabaseOptions {
  service: string;
  /** Postgres connection string; when absent the service uses an embedded PGlite database. */
  url?: string;
  /** Folder for the embedded database; `undefined` with no url means in-memory (tests). */
  dataDir?: string;
  poolMax?: number;
  /** Tuning of the embedded engine (ignored with a url). */
  embedded?: EmbeddedEngineOptions;
}

/** knex-pglite's own query method, which the class below hands every single statement. */
interface PgLiteQuery {
  _query(connection: unknown, obj: unknown): Promise<unknown>;
}

// The embedded engine's packages load on first use: a service image runs on PostgreSQL only and
// leaves them out (deploy/docker/service.Dockerfile).
const requirePackage = createRequire(import.meta.url);
let embeddedClient: typeof knexFactory.Client | undefined;

/**
 * PGlite's `query` speaks the extended protocol, which refuses several statements in one string;
 * migrations are whole SQL files, so parameterless multi-statement SQL goes through `exec`.
 * The engine is opened by embeddedEngine.ts (tuned, its cluster made once per process) and handed
 * over as a promise: `pglite.waitReady` stays what callers wait on before the pool's timeout applies.
 */
function embeddedClientClass(): typeof knexFactory.Client {
  if (embeddedClient) return embeddedClient;
  const ClientPgLite = requirePackage('knex-pglite') as { new (config: Knex.Config): object; prototype: object };
  class PgLiteClient extends ClientPgLite {
    declare config: { connection: { engine: Promise<PGlite> } };
    declare pglite: { waitReady: Promise<void> };

    _driver() {
      const { engine } = this.config.connection;
      const waitReady = engine.then(() => undefined);
      // Reported to whoever waits or queries; never an unhandled rejection of its own.
      waitReady.catch(() => {});
      this.pglite = { waitReady };
    }

    async _acquireOnlyConnection() {
      return this.config.connection.engine;
    }

    async _query(connection: { exec(sql: string): Promise<unknown[]> }, obj: { sql: string; bindings?: unknown[]; response?: unknown }) {
      const multiStatement = !obj.bindings?.length && /;\s*\S/.test(obj.sql);
      if (!multiStatement) return (ClientPgLite.prototype as unknown as PgLiteQuery)._query.call(this, connection, obj);
      const results = await connection.exec(obj.sql);
      obj.response = results[results.length - 1] ?? { rows: [], fields: [], affectedRows: 0 };
      return obj;
    }
  }
  embeddedClient = PgLiteClient as unknown as typeof knexFactory.Client;
  return embeddedClient;
}

/** Opens the service's own database: Postgres when a URL is given, otherwise embedded PGlite. */
export function openDatabase(options: DatabaseOptions): Db {
  if (options.url) {
    return knexFactory({
      client: 'pg',
      connection: options.url,
      pool: { min: 0, max: options.poolMax ?? 10 },
    });
  }
  // Opened now, not at the first query: every service's engine starts while the others load.
  const dir = options.dataDir ? path.resolve(options.dataDir, options.service) : undefined;
  const engine = import('./embeddedEngine.ts').then(({ openEmbeddedEngine }) => openEmbeddedEngine(dir, options.embedded));
  engine.catch(() => {});
  return knexFactory({ client: embeddedClientClass(), dialect: 'postgres', connection: { engine } as never });
}

/** Picks `<SERVICE>_DATABASE_URL`, then `DATABASE_URL`. */
export function databaseUrlFor(service: string, env: NodeJS.ProcessEnv): string | undefined {
  return env[`${service.toUpperCase()}_DATABASE_URL`] || env.DATABASE_URL || undefined;
}

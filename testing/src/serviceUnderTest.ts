import type { Bus } from '@leadforge/kit/events';
import { startService, type RunningService, type ServiceDefinition, type StartOptions } from '@leadforge/kit/service';
import { createFreshPostgres } from './testDatabase.ts';

export type TestDatabaseKind = 'pglite' | 'postgres';

/**
 * Starts one service for a test on a free loopback port with its own fresh database: in-memory
 * PGlite, or a new database on the test Postgres server.
 */
export async function startServiceForTest(def: ServiceDefinition, options: { kind: TestDatabaseKind; env?: NodeJS.ProcessEnv; bus?: Bus; logger?: StartOptions['logger'] }): Promise<RunningService> {
  const fresh = options.kind === 'postgres' ? await createFreshPostgres(def.name) : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: fresh?.url ?? '',
    [`${def.name.toUpperCase()}_DATABASE_URL`]: '',
    DATA_DIR: ':memory:',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  };
  const running = await startService(def, { env, bus: options.bus, logger: options.logger, port: 0 });
  return {
    ...running,
    async stop() {
      await running.stop();
      await fresh?.drop();
    },
  };
}

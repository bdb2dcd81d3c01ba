import path from 'node:path';
import { findPostgresBin, findRedisServer, startPostgres, startRedis } from '@leadforge/stack/infrastructure';

export interface TestServer {
  pid: number;
  stop(): Promise<void>;
}

const installed = (find: () => string) => {
  try {
    return Boolean(find());
  } catch {
    return false;
  }
};

/**
 * A test run's own PostgreSQL and Redis, in folders under `dir` on free loopback ports, their URLs set
 * as TEST_DATABASE_URL / TEST_REDIS_URL for the test processes; a server the environment already
 * names (those variables set), or whose program is not installed, is not started.
 */
export async function startTestServers(dir: string): Promise<TestServer[]> {
  const [postgres, redis] = await Promise.all([
    process.env.TEST_DATABASE_URL === undefined && installed(findPostgresBin)
      // Throwaway data: durability only costs the tests time.
      ? startPostgres({ dataDir: path.join(dir, 'postgres'), settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } })
      : undefined,
    process.env.TEST_REDIS_URL === undefined && installed(findRedisServer) ? startRedis({ dataDir: path.join(dir, 'redis') }) : undefined,
  ]);
  if (postgres) process.env.TEST_DATABASE_URL = postgres.url();
  if (redis) process.env.TEST_REDIS_URL = redis.url;
  return [postgres, redis].filter((server) => server !== undefined);
}

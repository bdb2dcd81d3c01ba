// Which test files run how (vitest.config.ts, `npm test`, `npm run test:quick`).

/** Folders with the workspaces' own tests: the unit and service tests, on PGlite in the quick tier. */
export const WORKSPACE_TEST_FOLDERS = ['packages', 'services', 'gateway', 'web/src', 'stack/test', 'testing', 'scripts'];

/**
 * Tests among those that start real servers of their own (Kafka, PostgreSQL, Redis) or the whole product
 * in-process (the launcher's, the slowest of the workspaces' files by far): the quick tier leaves them
 * out, and `npm test` runs them with the product's tests.
 */
export const SERVER_TEST_FILES = [
  '**/*.kafka*.test.ts',
  'stack/test/kafkaBroker.test.ts',
  'stack/test/postgresServer.test.ts',
  'stack/test/redisServer.test.ts',
  'stack/test/localEngines.test.ts',
  'stack/test/startStack.test.ts',
];

/**
 * Tests that replace a module (`vi.mock`): each in a process of its own, since a worker that keeps the
 * modules an earlier file loaded would hand them the real one.
 */
export const MODULE_REPLACING_TEST_FILES = ['packages/kit/test/bus.kafka.pacing.test.ts'];

/**
 * Tests on a real Kubernetes cluster this machine builds (npm run cluster:up): run after every other
 * test, alone, since the cluster and its pods want both cores for the minutes they run.
 */
export const CLUSTER_TEST_FILES = ['test/cluster/kubernetes.test.ts'];

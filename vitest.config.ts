import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { CLUSTER_TEST_FILES, MODULE_REPLACING_TEST_FILES, SERVER_TEST_FILES, WORKSPACE_TEST_FOLDERS } from './scripts/testTiers.mjs';
import { HeavyFirstSequencer } from './test/support/heavyFirstSequencer.ts';

const workspaceTests = WORKSPACE_TEST_FOLDERS.flatMap((folder) => [`${folder}/**/*.test.ts`, `${folder}/**/*.test.tsx`]);

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which left a core
    // idle while a test waited on a product, a server or a browser. `--maxWorkers` overrides it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/globalInfra.ts'],
    // Every test worker, like every product process a test starts, talks only to loopback and tiers its
    // code up later (test/support/lateTierUpPreload.mjs); each test file's product data folders are
    // removed once its hooks are done, and its CPU recorded.
    setupFiles: ['test/support/loopbackEgressPreload.mjs', 'test/support/lateTierUpPreload.mjs', 'test/support/eachFileCleanup.ts'],
    // The heaviest files first, the workspaces' files last (test/support/heavyFirstSequencer.ts).
    sequence: { sequencer: HeavyFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'workspaces',
          include: workspaceTests,
          exclude: ['**/node_modules/**', ...SERVER_TEST_FILES],
          // A worker runs these files one after another in one process and keeps the modules they
          // loaded (fastify, the kit, each service, the embedded-database template): each makes its own
          // services and databases. bench/results/testRun.md has the figures.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'product',
          include: ['test/**/*.test.ts', ...SERVER_TEST_FILES],
          exclude: ['**/node_modules/**', ...MODULE_REPLACING_TEST_FILES, ...CLUSTER_TEST_FILES],
          // Each starts products, brokers, browsers or servers of its own, and stops them; a worker keeps
          // the modules loaded from one file to the next (the stack, Playwright, the test support), which
          // each isolated file loaded again: about a tenth of test/system's CPU (bench/results/testRun.md).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: MODULE_REPLACING_TEST_FILES,
          isolate: true,
        },
      },
      {
        extends: true,
        test: {
          // A whole Kubernetes cluster with the product on it: `npm test` runs it after the others,
          // alone on the machine (scripts/test.mjs).
          name: 'cluster',
          include: CLUSTER_TEST_FILES,
        },
      },
    ],
  },
});

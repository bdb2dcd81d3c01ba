import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import InterleavingSequencer from './test/support/interleavingSequencer.ts';

/** What both projects share. Not the global setup: the root runs it once for the run (a project would run it again). */
const shared = {
  exclude: ['**/node_modules/**'],
  testTimeout: 30000,
  hookTimeout: 60000,
  pool: 'forks' as const,
  // Every test worker, like every product process a test starts, talks only to loopback.
  setupFiles: ['test/support/loopbackEgressPreload.mjs'],
};

const WORKSPACE_TESTS = ['packages/**/test/**/*.test.ts', 'packages/**/src/**/*.test.ts', 'services/**/test/**/*.test.ts', 'services/**/src/**/*.test.ts', 'gateway/**/*.test.ts', 'web/src/**/*.test.ts', 'web/src/**/*.test.tsx', 'scripts/**/*.test.ts', 'stack/test/**/*.test.ts'];
/** Workspace tests that replace a module (vi.mock): only a fresh module graph sees the replacement. */
export const MODULE_REPLACING_TESTS = ['packages/kit/test/bus.kafka.pacing.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which left a core
    // idle while a test waited on a product, a server or a browser. `--maxWorkers` overrides it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/globalInfra.ts'],
    sequence: { sequencer: InterleavingSequencer },
    projects: [
      {
        // Each workspace's own unit and service tests. Not isolated: the files of a worker share its
        // modules, so a worker imports them and makes the kit's embedded-database template once, not
        // once per file. test:quick has run them so since it began.
        test: {
          ...shared,
          name: 'workspaces',
          include: WORKSPACE_TESTS,
          exclude: [...shared.exclude, ...MODULE_REPLACING_TESTS],
          isolate: false,
        },
      },
      {
        // The product from outside (its processes, browsers, brokers, gateways), and the tests that
        // replace a module: each file in a module graph of its own.
        test: { ...shared, name: 'isolated', include: ['test/**/*.test.ts', ...MODULE_REPLACING_TESTS] },
      },
    ],
  },
});

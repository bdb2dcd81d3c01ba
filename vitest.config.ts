import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/test/**/*.test.ts', 'packages/**/src/**/*.test.ts', 'services/**/test/**/*.test.ts', 'services/**/src/**/*.test.ts', 'gateway/**/*.test.ts', 'web/src/**/*.test.ts', 'web/src/**/*.test.tsx', 'test/**/*.test.ts', 'scripts/**/*.test.ts', 'stack/test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which left a core
    // idle while a test waited on a product, a server or a browser. `--maxWorkers` overrides it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/globalInfra.ts'],
    // Every test worker, like every product process a test starts, talks only to loopback; each test
    // file's product data folders are removed once its hooks are done.
    setupFiles: ['test/support/loopbackEgressPreload.mjs', 'test/support/eachFileCleanup.ts'],
  },
});

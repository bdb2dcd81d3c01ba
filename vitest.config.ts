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
    // A worker keeps the modules it loaded from one test file to the next instead of loading fastify,
    // the kit and each service again per file (most of a file's import time): services, PGlite and the
    // product are made per file, and test/support/eachTestFile.ts resets what a process holds once.
    // Measured on auth's and affiliate's tests: 70 s with isolation, 56 s without.
    isolate: false,
    globalSetup: ['test/support/globalInfra.ts'],
    // Every test worker, like every product process a test starts, talks only to loopback.
    setupFiles: ['test/support/loopbackEgressPreload.mjs', 'test/support/eachTestFile.ts'],
  },
});

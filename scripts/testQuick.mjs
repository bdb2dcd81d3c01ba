// `npm run test:quick`: the inner loop. Type check, lint, and the unit and service tests on PGlite;
// no PostgreSQL, Redis or Kafka servers, no product processes, browsers, clusters or gateways at the
// edge (those are `npm test`'s). Prints how long each step took.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { lint } from './lint.mjs';
import { typecheck } from './typecheck.mjs';

const root = path.resolve(new URL('..', import.meta.url).pathname);

/**
 * Empty (not unset) server addresses: test/support/globalInfra.ts starts no private PostgreSQL or Redis,
 * and the tests' PostgreSQL, Redis and Kafka variants report themselves skipped.
 */
const PGLITE_ONLY = {
  TEST_DATABASE_URL: '',
  DATABASE_URL: '',
  TEST_REDIS_URL: '',
  REDIS_URL: '',
  TEST_KAFKA_BROKERS: '',
  KAFKA_BROKERS: '',
};

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const timings = [];
/** Runs one step, records its time, and stops the whole run at the first that fails. */
async function step(name, run) {
  const started = performance.now();
  const ok = await run();
  timings.push(`${name} ${seconds(started)}`);
  if (!ok) {
    console.error(`\ntest:quick: ${name} failed (${timings.join(', ')})`);
    process.exit(1);
  }
}

const started = performance.now();
await step('type check', typecheck);
await step('lint', lint);
await step('tests', () => {
  const env = { ...process.env, ...PGLITE_ONLY };
  // CI's "nothing may skip" applies to npm test, which starts the servers this tier leaves out.
  delete env.LEADFORGE_REQUIRE_PREREQUISITES;
  // vitest.config.ts's `workspaces` project: the workspaces' tests but those that start servers
  // (scripts/testTiers.mjs), non-isolated: the files of a worker share its modules, so each worker
  // imports them and makes the kit's embedded-database template once, not once per file (the tier's
  // tests: 132 s so on a quiet moment here, 418 s isolated on a busier one). npm test runs them so
  // too; a file run alone gets a process of its own.
  // The slowest files at the end (test/support/fileTimesReporter.ts), unless other reporters are asked for.
  const reporters = process.argv.slice(2).some((arg) => arg.startsWith('--reporter')) ? [] : ['--reporter=default', '--reporter=./test/support/fileTimesReporter.ts'];
  const args = ['vitest', 'run', '--project', 'workspaces', ...reporters, ...process.argv.slice(2)];
  return spawnSync('npx', args, { cwd: root, stdio: 'inherit', env }).status === 0;
});
console.log(`\ntest:quick passed in ${seconds(started)} (${timings.join(', ')})`);

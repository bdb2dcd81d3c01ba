// Vitest globalSetup: a private PostgreSQL and Redis for the whole run (temp folders, free ports,
// 127.0.0.1 only), never the machine's own servers. Their URLs reach the forked workers as
// TEST_DATABASE_URL / TEST_REDIS_URL; without the binaries they stay unset and those tests skip.
// For the product's tests it also builds the SPA when stale, before any of them starts: a build in a
// test file emptied web/dist under the products other files were serving pages from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startTestServers } from '@leadforge/testing';
import type { TestProject } from 'vitest/node';
import { buildWebIfStale } from '../../scripts/webBuild.mjs';
import { missingPrerequisites } from '../../stack/src/distributed/prerequisites.ts';
import { CHROMIUM_PATH } from './browser.ts';

/**
 * With LEADFORGE_REQUIRE_PREREQUISITES=true (.ci/run sets it) a missing program fails the run at once,
 * naming the install command, instead of letting the tests that need it report themselves skipped.
 */
function requirePrerequisites(): void {
  const missing = missingPrerequisites();
  if (missing) throw new Error(`LEADFORGE_REQUIRE_PREREQUISITES: ${missing.what} missing: ${missing.install}`);
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`LEADFORGE_REQUIRE_PREREQUISITES: Chromium missing at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  if (spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status !== 0) throw new Error('LEADFORGE_REQUIRE_PREREQUISITES: promtool missing: apt-get install -y prometheus');
}

/**
 * Where the run's folder goes: a RAM disk when the machine has one with room (Linux's /dev/shm), else the
 * temporary folder. A run writes gigabytes it soon deletes (each product a test starts copies the
 * 200 MB data template), which on disk cost the run its share of the kernel's writeback.
 */
function runFolderParent(): string {
  try {
    const { bavail, bsize } = fs.statfsSync('/dev/shm');
    if (bavail * bsize >= 8 * 2 ** 30) return '/dev/shm';
  } catch {
    // No /dev/shm here.
  }
  return os.tmpdir();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.LEADFORGE_REQUIRE_PREREQUISITES === 'true') requirePrerequisites();
  // vitest.config.ts's `product` project: the files that serve the SPA (the workspaces' never do).
  if (project.name === 'product') buildWebIfStale();
  const base = fs.mkdtempSync(path.join(runFolderParent(), 'leadforge-test-infra-'));
  // The postgres user (PostgreSQL's when the tests run as root) must reach its folder inside.
  fs.chmodSync(base, 0o755);
  // Every temporary folder of the run (product data, stacks, browser profiles) goes below the run's own
  // folder, removed at the end: a test that forgets its folder no longer fills the disk run after run.
  const scratch = path.join(base, 'tmp');
  fs.mkdirSync(scratch, { mode: 0o1777 });
  fs.chmodSync(scratch, 0o1777);
  process.env.TMPDIR = scratch;
  process.env.LEADFORGE_TEST_SCRATCH = scratch;
  // Every test process starts its embedded databases from one initdb, not one each (packages/kit/src/db/embeddedEngine.ts).
  process.env.LEADFORGE_CLUSTER_ARCHIVE_FOLDER = scratch;
  const servers: Array<{ pid: number; stop(): Promise<void> }> = [];
  // Vitest exits on Ctrl-C without tearing down: throwaway servers then go at once, with their folder.
  const onExit = () => {
    for (const { pid } of servers) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(base, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const teardown = async () => {
    process.off('exit', onExit);
    await Promise.all(servers.map((server) => server.stop()));
    fs.rmSync(base, { recursive: true, force: true });
  };

  try {
    servers.push(...await startTestServers(base));
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../stack/src/freePort.ts';
// waitFor alone: this file loads with every test file (eachFileCleanup.ts), and the package's index loads
// the bus, which a test replacing kafkajs (bus.kafka.pacing.test.ts) must load after its replacement.
import { waitFor } from '@leadforge/testing/waitFor';
import { isolatedEnv, startProductProcess } from './productProcess.ts';

/**
 * Most of a product's start in a new data folder is PGlite creating and migrating seven databases
 * (about 30 of the 40-50 s a start takes on this 2-core machine; 7 s on a folder it has used before).
 * So a run starts the product once, as `npm start` does, in a folder of its own, stops it, and every
 * product a test starts without a folder of its own gets a copy: a product restarted on its data, which
 * it must handle anyway. The template lives in the test run's own folder (LEADFORGE_TEST_SCRATCH, set by
 * test/support/globalInfra.ts), removed with it; whichever test needs it first makes it, the others wait
 * for it. Outside a test run (bench/) there is no template: every folder starts empty.
 */
const RUN_FOLDER = process.env.LEADFORGE_TEST_SCRATCH;
const TEMPLATE = path.join(RUN_FOLDER ?? os.tmpdir(), 'leadforge-data-template');
const DATA = path.join(TEMPLATE, 'data');
const READY = path.join(TEMPLATE, 'ready');
const FAILED = path.join(TEMPLATE, 'failed');

async function makeTemplate(): Promise<void> {
  try {
    const product = await startProductProcess('start', isolatedEnv(await freePort(), DATA, 'warn'), /Leadforge is running at (http:\/\/\S+)/, 240_000);
    // The launcher prints its ready line a moment before it listens for Ctrl-C; a Ctrl-C in between kills
    // it outright, its databases not closed. Once it has answered a request, its start has run to the end.
    await fetch(`${product.url}/healthz`);
    const code = await product.stop();
    if (code !== 0) throw new Error(`the product stopped with ${code}:\n${product.output()}`);
    fs.writeFileSync(READY, '');
  } catch (err) {
    fs.writeFileSync(FAILED, String((err as Error).stack ?? err));
    throw err;
  }
}

async function templateReady(): Promise<void> {
  let mine = false;
  try {
    fs.mkdirSync(TEMPLATE);
    mine = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (mine) return makeTemplate();
  await waitFor(() => fs.existsSync(READY) || fs.existsSync(FAILED), { timeoutMs: 300_000, intervalMs: 200, what: 'the product\'s data template' });
  if (fs.existsSync(FAILED)) throw new Error(`the product's data template could not be made:\n${fs.readFileSync(FAILED, 'utf8')}`);
}

const madeByThisFile: string[] = [];

/** A new data folder; in a test run, holding what a product started once and stopped leaves (its databases made and migrated). */
export async function freshDataDir(prefix = 'leadforge-'): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (!RUN_FOLDER) return dir;
  madeByThisFile.push(dir);
  await templateReady();
  fs.cpSync(DATA, dir, { recursive: true });
  return dir;
}

/**
 * Removes the data folders this test file's products used, once its tests and hooks are done
 * (test/support/eachFileCleanup.ts): a run's folder may be a RAM disk, where 200 MB a product
 * would otherwise stay until the run ends.
 */
export function removeDataDirsOfThisFile(): void {
  for (const dir of madeByThisFile.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

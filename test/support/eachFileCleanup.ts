// A vitest setup file: after each test file's own hooks have stopped its products, their data folders go,
// and the file's CPU is recorded in its meta (test/support/fileTimesReporter.ts prints it).
import fs from 'node:fs';
import { afterAll, TestRunner } from 'vitest';
import { removeDataDirsOfThisFile } from './dataTemplate.ts';

/** This process's CPU seconds with its reaped children (the products, browsers and brokers a file started and stopped). */
function cpuSecondsWithChildren(): number {
  // /proc/<pid>/stat after the command name: utime, stime, cutime and cstime are the 12th to 15th fields.
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
}

/**
 * The process's CPU when its last test file ended: a non-isolated worker runs several files in one
 * process, and each is charged what was spent since the one before it. An isolated file's process is its
 * own, and it is charged all of it, its import included.
 */
const processCpu = globalThis as { leadforgeCpuAtLastFile?: number };

// Setup files run as the test file is collected: the current suite is the file's.
const file = TestRunner.getCurrentSuite().file;
afterAll(() => {
  removeDataDirsOfThisFile();
  if (!file || !fs.existsSync('/proc/self/stat')) return;
  const now = cpuSecondsWithChildren();
  file.meta.cpuSeconds = Math.round((now - (processCpu.leadforgeCpuAtLastFile ?? 0)) * 100) / 100;
  processCpu.leadforgeCpuAtLastFile = now;
});

declare module 'vitest' {
  interface TaskMeta {
    /** The test file's CPU seconds, its products and browsers included (Linux only). */
    cpuSeconds?: number;
  }
}

// A vitest setup file: after each test file's own hooks have stopped its products, their data folders go,
// and the file's CPU is recorded in its meta (fileTimesReporter prints it).
import fs from 'node:fs';
import { afterAll } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { removeDataDirsOfThisFile } from './dataTemplate.ts';

/** This process's CPU seconds with its reaped children (the products, browsers and brokers a file started and stopped). */
function cpuSecondsWithChildren(): number {
  // /proc/<pid>/stat after the command name: utime, stime, cutime and cstime are the 12th to 15th fields.
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
}

// Setup files run as the test file is collected: the current suite is the file's.
const file = getCurrentSuite().file;
afterAll(() => {
  removeDataDirsOfThisFile();
  // Every file runs in a process of its own (isolated): this is the file's whole cost, its import included.
  if (file && fs.existsSync('/proc/self/stat')) file.meta.cpuSeconds = cpuSecondsWithChildren();
});

declare module 'vitest' {
  interface TaskMeta {
    /** The test file's CPU seconds, its products and browsers included (Linux only). */
    cpuSeconds?: number;
  }
}

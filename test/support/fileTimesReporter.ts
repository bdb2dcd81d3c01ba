/**
 * A vitest reporter `npm test` adds: each test file's whole cost (its import, and its tests with their
 * hooks: the product and broker starts of beforeAll, which the JSON report's per-file times leave out;
 * its CPU with the products and browsers it started, from test/support/eachFileCleanup.ts), written as
 * JSON to LEADFORGE_FILE_TIMES, the slowest and the CPU by folder printed at the end of the run. On a
 * machine whose cores stay busy, the CPU is what a file costs the run.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

interface FileTime {
  file: string;
  /** Importing the file and what it imports (vitest's collect phase), in seconds. */
  importS: number;
  /** Its tests and hooks, in seconds. */
  runS: number;
  /** Seconds since the run began when it ended: which files ran side by side. */
  endedAtS: number;
  /** CPU seconds of the file's process and the children it reaped (containers' not counted). */
  cpuS?: number;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export default class FileTimesReporter implements Reporter {
  private readonly times: FileTime[] = [];
  private root = process.cwd();
  private readonly started = performance.now();

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    this.times.push({
      file: path.relative(this.root, module.moduleId),
      importS: seconds(diagnostic.collectDuration),
      runS: seconds(diagnostic.duration),
      endedAtS: seconds(performance.now() - this.started),
      cpuS: module.meta().cpuSeconds,
    });
  }

  onTestRunEnd(): void {
    const slowest = [...this.times].sort((a, b) => b.importS + b.runS - (a.importS + a.runS));
    const out = process.env.LEADFORGE_FILE_TIMES;
    if (out) fs.writeFileSync(out, `${JSON.stringify(slowest, null, 1)}\n`);
    const total = (pick: (t: FileTime) => number) => Math.round(this.times.reduce((sum, t) => sum + pick(t), 0));
    console.log(`\nslowest test files (import + tests with hooks, s; all ${this.times.length}: import ${total((t) => t.importS)} s, tests ${total((t) => t.runS)} s${out ? `; every file in ${out}` : ''}):`);
    for (const t of slowest.slice(0, 15)) console.log(`${(t.importS + t.runS).toFixed(1).padStart(7)}  ${t.file} (import ${t.importS}, ${t.cpuS ?? '?'} s of CPU, ended at ${t.endedAtS})`);
    const byFolder = new Map<string, { cpuS: number; files: number }>();
    for (const t of this.times) {
      const folder = t.file.split(path.sep).slice(0, 2).join('/');
      const sum = byFolder.get(folder) ?? { cpuS: 0, files: 0 };
      byFolder.set(folder, { cpuS: sum.cpuS + (t.cpuS ?? 0), files: sum.files + 1 });
    }
    console.log(`\nCPU by folder (s; all: ${total((t) => t.cpuS ?? 0)} s):`);
    for (const [folder, sum] of [...byFolder].sort((a, b) => b[1].cpuS - a[1].cpuS)) console.log(`${sum.cpuS.toFixed(0).padStart(7)}  ${folder} (${sum.files} files)`);
  }
}

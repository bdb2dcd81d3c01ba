import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Prints a benchmark's figures and keeps them in bench/results/<name>.json with the machine they ran on. */
export function reportFigures(name: string, figures: Record<string, unknown>): void {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  fs.mkdirSync(dir, { recursive: true });
  const record = { name, at: new Date().toISOString(), machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version }, figures };
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(record, null, 2));
  console.log(JSON.stringify(record, null, 2));
}

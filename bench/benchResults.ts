import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
const RESULTS_DIR = path.join(BENCH_DIR, 'results');

/**
 * Prints a benchmark's figures and adds them, dated and with the machine and commit they ran on, at
 * the top of bench/results/<name>.md, a record kept in git: figures live there, and the docs link to it
 * rather than repeating numbers that go stale.
 */
export function reportFigures(name: string, figures: Record<string, unknown>): void {
  const entry = renderEntry({ at: new Date(), machine: thisMachine(), commit: currentCommit(), figures });
  console.log(entry);
  const file = path.join(RESULTS_DIR, `${name}.md`);
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : recordHeading(name);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(file, withNewestEntry(existing, entry));
}

export interface RunRecord {
  at: Date;
  machine: string;
  commit: string;
  figures: Record<string, unknown>;
}

/** One run as markdown: a dated heading, the machine and commit, then every figure in a table. */
export function renderEntry({ at, machine, commit, figures }: RunRecord): string {
  const rows = flatten(figures).map(([key, value]) => `| \`${key}\` | ${cell(value)} |`);
  return [`## ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`, '', `${machine}; commit ${commit}.`, '', '| figure | value |', '|---|---|', ...rows, ''].join('\n');
}

/** The record with a new entry above its earlier ones (newest first), below its heading. */
export function withNewestEntry(record: string, entry: string): string {
  const first = record.search(/^## /m);
  if (first === -1) return `${record.trimEnd()}\n\n${entry}`;
  return `${record.slice(0, first)}${entry}\n${record.slice(first)}`;
}

function recordHeading(name: string): string {
  const script = path.relative(path.dirname(BENCH_DIR), process.argv[1] ?? '') || `bench/${name}.ts`;
  return `# ${name}\n\nFigures of \`${script}\`, newest first; the machine and commit of each run are beside it.\n`;
}

/** Nested figures as `a.b.c` keys; a list of plain values stays one cell. */
function flatten(value: unknown, prefix = ''): [string, unknown][] {
  const isList = Array.isArray(value);
  if (value === null || typeof value !== 'object' || (isList && value.every((item) => item === null || typeof item !== 'object'))) {
    return [[prefix || 'value', value]];
  }
  return Object.entries(value).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
}

function cell(value: unknown): string {
  const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function thisMachine(): string {
  const cpus = os.cpus();
  const load = os.loadavg().map((n) => n.toFixed(1)).join(' / ');
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${load} at the end`;
}

/** The commit measured, marked when the working tree had changes beside it. */
function currentCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: BENCH_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leadforgeCacheDir } from '../../stack/src/infrastructure/prerequisites.ts';

/** The pinned schemathesis (PyPI); `.ci/run` installs it into `<cache>/schemathesis-<version>`. */
export const SCHEMATHESIS_REQUIREMENTS = path.resolve(new URL('./schemathesis.requirements.txt', import.meta.url).pathname);
export const SCHEMATHESIS_VERSION = fs.readFileSync(SCHEMATHESIS_REQUIREMENTS, 'utf8').match(/^schemathesis==(\S+)/m)![1];
const VENV = path.join(leadforgeCacheDir(), `schemathesis-${SCHEMATHESIS_VERSION}`);

export const SCHEMATHESIS_INSTALL = `python3 -m venv ${VENV} && ${VENV}/bin/pip install -r test/support/schemathesis.requirements.txt`;

/** The `st` command of the pinned install, when it is there. */
export function schemathesisBinary(): string | undefined {
  const binary = path.join(VENV, 'bin', 'st');
  return fs.existsSync(binary) ? binary : undefined;
}

export interface SchemathesisRun {
  code: number;
  output: string;
}

/**
 * `st`, with Hypothesis's description of a lambda made safe. Hypothesis names a strategy by parsing its
 * lambdas' source (`ast.parse`); on CPython 3.11 before 3.11.8 (this machine's 3.11.7, Debian's 3.11.2)
 * that parse can fail with "SystemError: AST constructor recursion depth mismatch" (CPython gh-106905),
 * and schemathesis reports a runtime error for the operation it was fuzzing (POST /api/monitors, in 2
 * of about 6 CI runs here; a higher recursion limit did not prevent it). A description is only a
 * name in a report: on that error the lambda is described as Hypothesis does when it cannot tell.
 */
const ST_SAFE_LAMBDAS = [
  'import sys',
  'import hypothesis.internal.lambda_sources as sources',
  'describe = sources._lambda_description',
  'def describe_safely(f, *args, **kwargs):',
  '    try:',
  '        return describe(f, *args, **kwargs)',
  '    except SystemError:',
  '        return "lambda: <unknown>"',
  'sources._lambda_description = describe_safely',
  'sys.argv[0] = "st"',
  'from schemathesis.cli import schemathesis',
  'sys.exit(schemathesis())',
].join('\n');

/**
 * Runs `st run` in a throwaway folder (it keeps a `.schemathesis/` cache where it runs) and resolves
 * with its exit code and output (never rejects on a failing run).
 */
export function runSchemathesis(binary: string, args: string[], timeoutMs: number): Promise<SchemathesisRun> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-schemathesis-'));
  const python = path.join(path.dirname(binary), 'python3');
  return new Promise((resolve) => {
    execFile(python, ['-c', ST_SAFE_LAMBDAS, 'run', ...args], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } }, (error, stdout, stderr) => {
      fs.rmSync(cwd, { recursive: true, force: true });
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

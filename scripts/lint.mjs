// `npm run lint`: ESLint (eslint.config.js) and the architecture's import rules (.dependency-cruiser.cjs)
// over our code, side by side. `npm test` runs it right after the type check.
// Both tools come from lint/, a package of its own with its own lock file: they read TypeScript
// through its 6.x compiler API, which the workspaces' TypeScript 7 does not offer.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const lintDir = path.join(root, 'lint');
const bin = (name) => path.join(lintDir, 'node_modules', '.bin', name);

/** The folders of our code the import rules walk. */
export const CRUISED = ['packages', 'services', 'gateway', 'stack', 'testing', 'web', 'test', 'bench', 'scripts', 'deploy'];

/** Installs lint/'s packages when they are missing or older than its lock file. */
function ensureLintTools() {
  const installed = path.join(lintDir, 'node_modules', '.package-lock.json');
  const lock = path.join(lintDir, 'package-lock.json');
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return true;
  console.log('lint: installing ESLint and dependency-cruiser into lint/ (npm ci --prefix lint)');
  return spawnSync('npm', ['ci', '--prefix', lintDir, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' }).status === 0;
}

/** Runs a tool, holding its output until it ends so two tools running at once do not interleave. */
function runTool(name, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (status) => {
      process.stdout.write(Buffer.concat(output));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${name}: ${status === 0 ? 'passed' : 'failed'} (${seconds} s)`);
      resolve(status === 0);
    });
  });
}

/** Runs ESLint and the import rules at once (they are independent); answers whether both passed. */
export async function lint() {
  if (!ensureLintTools()) {
    console.error('lint: could not install the lint tools');
    return false;
  }
  // The cache makes a second run check only changed files; a first run checks them all, on two
  // threads (the machines have two cores), which for a handful of files would cost more than it saves.
  const cache = 'node_modules/.cache/eslint/';
  const threads = fs.existsSync(path.join(root, cache)) ? 'off' : '2';
  const results = await Promise.all([
    runTool('eslint', bin('eslint'), ['--concurrency', threads, '--cache', '--cache-location', cache, '.']),
    runTool('import rules (dependency-cruiser)', bin('depcruise'), ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...CRUISED]),
  ]);
  return results.every(Boolean);
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  process.exit((await lint()) ? 0 : 1);
}

// Compiles the product to JavaScript (`npm run build:services`; `npm start`, `npm run start:distributed`
// and the service image run the result): every workspace under services/ and packages/, the gateway and
// the launchers (stack/) get a dist/ beside their src/ (src/x.ts -> dist/x.js, the files that are not
// TypeScript copied alongside, so paths taken from import.meta.url still find migrations and workers),
// the service entry point among them (packages/service-runner/dist/runService.js). Packages resolve to
// dist/ under the `leadforge-dist` export condition, which those command lines set.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const compiled = path.join(root, 'dist', 'compiled');
const stamp = path.join(root, 'dist', 'services.built');
const lock = path.join(root, 'dist', 'services.lock');
/** The export condition under which the workspaces resolve to their dist/ (`node --conditions=leadforge-dist`). */
export const DIST_CONDITION = 'leadforge-dist';
/** Workspace folders with sources to compile, as paths from the root: services/<name>, packages/<name>, gateway and stack. */
const workspaces = [...['services', 'packages'].flatMap((parent) => fs.readdirSync(path.join(root, parent))
  .filter((name) => fs.existsSync(path.join(root, parent, name, 'src')))
  .map((name) => path.join(parent, name))), 'gateway', 'stack'];
const sources = [...workspaces.map((workspace) => path.join(root, workspace, 'src')), path.join(root, 'tsconfig.build.json'), path.join(root, 'tsconfig.base.json')];


function newestMtime(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(file).map((entry) => newestMtime(path.join(file, entry))));
}

function copyAssets(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyAssets(source, path.join(to, entry.name));
    else if (!entry.name.endsWith('.ts')) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, path.join(to, entry.name));
    }
  }
}

export function servicesAreStale() {
  return !fs.existsSync(stamp) || Math.max(...sources.map(newestMtime)) > fs.statSync(stamp).mtimeMs;
}

/** Compiles with tsc and moves each workspace's output into place. Throws when tsc fails. */
export function buildServices() {
  fs.rmSync(compiled, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', '@typescript', 'native', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, encoding: 'utf8' });
  // TS2877: a package subpath such as '@leadforge/contracts/businessKeys.ts' is not rewritten; the
  // contracts' export map sends `./*.ts` to `./dist/*.js` under the leadforge-dist condition instead.
  const errors = `${tsc.stdout}${tsc.stderr}`.split('\n').filter((line) => line.trim() && !line.includes('error TS2877'));
  if (tsc.status !== 0 && errors.length > 0) throw new Error(`tsc failed:\n${errors.join('\n')}`);
  for (const workspace of workspaces) {
    const dist = path.join(root, workspace, 'dist');
    fs.rmSync(dist, { recursive: true, force: true });
    fs.renameSync(path.join(compiled, workspace, 'src'), dist);
    copyAssets(path.join(root, workspace, 'src'), dist);
  }
  fs.rmSync(compiled, { recursive: true, force: true });
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Builds when a source is newer than the last build; one build at a time across processes (tests start several products). */
export async function buildServicesIfStale(log = console.log) {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      // A builder that died leaves its lock behind.
      if (!holder || !alive(holder)) fs.rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (!servicesAreStale()) return;
    log('Compiling the services to JavaScript (first start or sources changed)...');
    const started = Date.now();
    buildServices();
    log(`  compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  try {
    buildServices();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

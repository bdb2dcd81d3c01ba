// Builds the SPA (web/dist): `npm test` always, `npm start`, `npm run start:distributed` and the product's
// tests (test/support/globalInfra.ts, before any test file starts) when its sources are newer than the build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const web = path.join(root, 'web');
const built = path.join(web, 'dist', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether the SPA's sources are newer than its build (or there is none). */
function webIsStale() {
  if (!fs.existsSync(built)) return true;
  const sources = Math.max(newestMtime(path.join(web, 'src')), ...['index.html', 'vite.config.ts', 'package.json'].map((f) => fs.statSync(path.join(web, f)).mtimeMs));
  return sources > fs.statSync(built).mtimeMs;
}

/**
 * Builds the SPA, always as production builds it: Vite takes NODE_ENV from the environment, and vitest
 * sets it to `test`, which gave React's development bundle under another fingerprint. Throws when the
 * build fails.
 */
export function buildWeb() {
  const result = spawnSync('npm', ['run', 'build', '--workspace', '@leadforge/web'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error(`the web build failed (exit ${result.status ?? result.signal})`);
}

/** Builds the SPA when it is stale (SKIP_WEB_BUILD=true: never); throws when the build fails. */
export function buildWebIfStale() {
  if (process.env.SKIP_WEB_BUILD === 'true' || !webIsStale()) return;
  console.log('Building the web app (first start or sources changed)...');
  buildWeb();
}

// Builds the SPA when its sources are newer than the build (`npm start` and `npm run start:distributed`).
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
export function webIsStale() {
  if (!fs.existsSync(built)) return true;
  const sources = Math.max(newestMtime(path.join(web, 'src')), ...['index.html', 'vite.config.ts', 'package.json'].map((f) => fs.statSync(path.join(web, f)).mtimeMs));
  return sources > fs.statSync(built).mtimeMs;
}

/** Exits the process when the build fails. */
export function buildWebIfStale() {
  if (process.env.SKIP_WEB_BUILD === 'true' || !webIsStale()) return;
  console.log('Building the web app (first start or sources changed)...');
  const result = spawnSync('npm', ['run', 'build', '--workspace', '@leadforge/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

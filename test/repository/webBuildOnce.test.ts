import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/** Every TypeScript file under a folder, as a path from the root. */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** What starts a build of the SPA: Vite's command, the workspace's build script, scripts/webBuild.mjs. */
const WEB_BUILD = /vite build|'build', '--workspace', '@leadforge\/web'|buildWeb(IfStale)?\(/;

describe('the SPA is built once, before the tests', () => {
  // A build empties web/dist: a test file that built it took the page away from the products the
  // files beside it were serving (test/support/globalInfra.ts builds it when stale, before any starts).
  it('no test file or test helper builds it', () => {
    const building = ['test', ...fs.readdirSync(path.join(ROOT, 'services')).map((s) => `services/${s}/test`), 'packages/kit/test', 'stack/test']
      .filter((dir) => fs.existsSync(path.join(ROOT, dir)))
      .flatMap(sources)
      .filter((file) => file !== 'test/support/globalInfra.ts' && file !== 'test/repository/webBuildOnce.test.ts')
      .filter((file) => WEB_BUILD.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(building).toEqual([]);
  });
});

// What `npm start` and `npm run start:distributed` do first: build the SPA and compile the product when
// their sources are newer than the builds, then run a compiled entry point of the product
// (stack/dist/...) in this process, whose packages must then resolve to their dist/: package.json's
// scripts give node the `leadforge-dist` condition. A script started without it (`node scripts/start.mjs`)
// runs itself again with it, passing signals on, and ends as that run ends.
import { spawn } from 'node:child_process';
import { buildServicesIfStale, DIST_CONDITION } from './buildServices.mjs';
import { buildWebIfStale } from './webBuild.mjs';

/**
 * `entry`: the compiled module to run; `script`: the import.meta.url of the script calling this;
 * `buildWeb`: false when the SPA is served from elsewhere (the web image).
 */
export async function startCompiled({ entry, script, buildWeb = true }) {
  try {
    if (buildWeb) buildWebIfStale();
    await buildServicesIfStale();
  } catch (error) {
    console.error(`\n  Leadforge failed to start: ${error.message}\n`);
    process.exit(1);
  }
  if (import.meta.resolve('@leadforge/stack').includes('/dist/')) {
    await import(entry);
    return;
  }
  const child = spawn(process.execPath, [`--conditions=${DIST_CONDITION}`, ...process.execArgv, new URL(script).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// `npm start`: builds the SPA and compiles the product to JavaScript when their sources are newer than
// the builds, then runs the local stack compiled, as production runs the services: no TypeScript loader
// in the process (tsx's hooks thread cost a quarter of a start's CPU, docs/decisions.md).
import { buildServicesIfStale } from './buildServices.mjs';
import { runCompiled } from './runCompiled.mjs';
import { buildWebIfStale } from './webBuild.mjs';

buildWebIfStale();
try {
  await buildServicesIfStale();
} catch (error) {
  console.error(`\n  Leadforge failed to start: ${error.message}\n`);
  process.exit(1);
}
await runCompiled(new URL('../stack/dist/embedded/main.js', import.meta.url).href, import.meta.url);

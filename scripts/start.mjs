// `npm start`: builds the SPA and compiles the product to JavaScript when their sources are newer than
// the builds, then runs the local stack compiled, as production runs the services: no TypeScript loader
// in the process (tsx's hooks thread cost a quarter of a start's CPU, docs/decisions.md).
import { startCompiled } from './startCompiled.mjs';

await startCompiled({ entry: new URL('../stack/dist/embedded/main.js', import.meta.url).href, script: import.meta.url });

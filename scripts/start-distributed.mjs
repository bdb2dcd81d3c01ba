// `npm run start:distributed`: builds the SPA and compiles the product when stale, then runs every
// service as its own process (compiled JavaScript, as the images do) on PostgreSQL, Redis and Kafka
// behind Envoy (stack/src/distributed), the launcher compiled too. With LEADFORGE_RUNTIME=containers the
// services and the web server run from their built images (npm run images) instead, so the SPA is not
// built here.
import { buildServicesIfStale } from './buildServices.mjs';
import { runCompiled } from './runCompiled.mjs';
import { buildWebIfStale } from './webBuild.mjs';

if (process.env.LEADFORGE_RUNTIME !== 'containers') buildWebIfStale();
try {
  await buildServicesIfStale();
} catch (error) {
  console.error(`\n  Leadforge failed to start: ${error.message}\n`);
  process.exit(1);
}
await runCompiled(new URL('../stack/dist/distributed/main.js', import.meta.url).href, import.meta.url);

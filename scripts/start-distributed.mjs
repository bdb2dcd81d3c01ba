// `npm run start:distributed`: builds the SPA and compiles the services when stale, then runs every
// service as its own process (compiled JavaScript, as the images do) on PostgreSQL, Redis and Kafka
// behind Envoy (stack/src/distributed). With LEADFORGE_RUNTIME=containers the services and the web server
// run from their built images (npm run images) instead, so nothing is built here. The launcher itself
// runs through tsx.
import { register } from 'tsx/esm/api';
import { buildServicesIfStale } from './buildServices.mjs';
import { buildWebIfStale } from './webBuild.mjs';

if (process.env.LEADFORGE_RUNTIME !== 'containers') {
  buildWebIfStale();
  try {
    await buildServicesIfStale();
  } catch (error) {
    console.error(`\n  Leadforge failed to start: ${error.message}\n`);
    process.exit(1);
  }
}
register();
await import('../stack/src/distributed/main.ts');

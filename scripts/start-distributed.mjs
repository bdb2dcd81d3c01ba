// `npm run start:distributed`: builds the SPA and compiles the product when stale, then runs every
// service as its own process (compiled JavaScript, as the images do) on PostgreSQL, Redis and Kafka
// behind Envoy (stack/src/distributed), the launcher compiled too. With LEADFORGE_RUNTIME=containers the
// services and the web server run from their built images (npm run images), so the SPA is not built here.
import { startCompiled } from './startCompiled.mjs';

await startCompiled({
  entry: new URL('../stack/dist/distributed/main.js', import.meta.url).href,
  script: import.meta.url,
  buildWeb: process.env.LEADFORGE_RUNTIME !== 'containers',
});

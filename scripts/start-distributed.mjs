// `npm run start:distributed`: builds the SPA when stale, then runs every service as its own process
// on PostgreSQL, Redis and Kafka behind Envoy (stack/src/distributed).
import { register } from 'tsx/esm/api';
import { buildWebIfStale } from './webBuild.mjs';

buildWebIfStale();
register();
await import('../stack/src/distributed/main.ts');

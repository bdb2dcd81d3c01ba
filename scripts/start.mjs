// `npm start`: builds the SPA when its sources are newer than the build, then runs the local stack.
import { register } from 'tsx/esm/api';
import { buildWebIfStale } from './webBuild.mjs';

buildWebIfStale();
register();
await import('../stack/src/embedded/main.ts');

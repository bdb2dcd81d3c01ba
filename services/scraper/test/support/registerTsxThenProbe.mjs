// tsx registered in code, no loader flag on the process (scripts/start-distributed.mjs's way).
import { register } from 'tsx/esm/api';

register();
await import('./parsePageProbe.ts');

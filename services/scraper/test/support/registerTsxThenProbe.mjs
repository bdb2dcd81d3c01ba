// `npm start`'s way: tsx registered in code, no loader flag on the process.
import { register } from 'tsx/esm/api';

register();
await import('./parsePageProbe.ts');

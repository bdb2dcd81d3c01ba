import { Type } from 'typebox';
import { Variable } from '@leadforge/kit/config';

/** What the launchers (`npm start`, `npm run start:distributed`) read besides the services' variables. */
export const LauncherVariables = Type.Object({
  PORT: Variable.integer({ description: 'the gateway\'s port with `npm start` and `start:distributed`', default: 8080, minimum: 1, maximum: 65535 }),
  SCRAPER_REPLICAS: Variable.integer({ description: 'scraper processes `start:distributed` runs', default: 2, minimum: 1, maximum: 16 }),
  PROMETHEUS_RULE_TIME_SCALE: Variable.integer({ description: 'with `start:distributed`, divides the alert rules\' durations (tests of the alerts)', default: 1, minimum: 1, maximum: 3600 }),
});

import { Type } from 'typebox';
import { Variable } from '@leadforge/kit/config';

/** What the launchers (`npm start`, `npm run start:distributed`) read besides the services' variables. */
export const LauncherVariables = Type.Object({
  PORT: Variable.integer({ description: 'the gateway\'s port with `npm start` and `start:distributed`', default: 8080, minimum: 1, maximum: 65535 }),
  SCRAPER_REPLICAS: Variable.integer({ description: 'scraper processes `start:distributed` runs', default: 2, minimum: 1, maximum: 16 }),
  LEADFORGE_RUNTIME: Variable.choice(['processes', 'containers'], {
    description: 'how `start:distributed` runs the services and the web server: each a Node process, or each a container of its built image (`npm run images`)',
    default: 'processes',
  }),
  PROMETHEUS_INTERVAL: Variable.string({
    description: 'how often the Prometheus of `start:distributed` and of the local cluster scrapes and evaluates its rules (tests shorten it)',
    defaultText: 'the Prometheus configuration\'s own', pattern: /^[1-9]\d*(ms|s|m|h)$/, hint: 'a Prometheus duration such as 15s',
  }),
  PROMETHEUS_RULE_TIME_SCALE: Variable.integer({ description: 'with `start:distributed`, divides the alert rules\' durations (tests of the alerts)', default: 1, minimum: 1, maximum: 3600 }),
});

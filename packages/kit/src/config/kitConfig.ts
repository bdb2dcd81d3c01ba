import crypto from 'node:crypto';
import { Type, type Static } from 'typebox';
import { SERVICES, type ServiceName } from '@leadforge/contracts';
import { kafkaConfigFrom, KafkaVariables, type KafkaConfig } from './kafkaConfig.ts';
import { collectConfig, loadVariable, readVariables, Variable, type ConfigProblems } from './environment.ts';

/** What every service reads from the environment. */
export interface KitConfig {
  service: ServiceName;
  production: boolean;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  kafkaBrokers?: string[];
  /** Kafka's settings when brokers are configured. */
  kafka?: KafkaConfig;
  redisUrl?: string;
  logLevel: string;
  /** How long a stop may take in all (SHUTDOWN_TIMEOUT_SECONDS): in-flight requests, background work, relay. */
  shutdownTimeoutMs: number;
  internalToken: string;
  /** Base URL of every service, for internal calls (`AUTH_URL`, `BILLING_URL`, ...). */
  serviceUrls: Partial<Record<ServiceName, string>>;
  publicUrl: string;
  otlpEndpoint?: string;
  /** Production refuses the labelled stand-ins (test checkout, test robot check...) unless `standIns`. */
  requireRealProviders: boolean;
  /** Whose X-Forwarded-For is believed besides loopback (TRUSTED_PROXIES). */
  trustedProxies: string[];
  /** Requests one API key may make per minute, all routes together. */
  apiKeyRequestsPerMinute: number;
  /** CLOCK_FILE: a file whose number of milliseconds the service's clock runs ahead (tests move time with it). */
  clockFile?: string;
}

/** The variables of every service (the kit's), Kafka's included; those named after a service are `serviceVariables`. */
export const KitVariables = Type.Object({
  PORT: Variable.integer({
    description: 'the port a process serves on: the gateway\'s with `npm start` and `start:distributed`, the service\'s own when the service runner runs one (its image; the chart sets 8080)',
    default: 8080, minimum: 0, maximum: 65535,
  }),
  NODE_ENV: Variable.string({ description: '`production`: no labelled stand-ins, and the credentials marked *required in production* must be set', defaultText: 'development' }),
  SERVICE_HOST: Variable.string({ description: 'the address services listen on (the chart sets `0.0.0.0`)', default: '127.0.0.1' }),
  DATA_DIR: Variable.string({ description: 'embedded databases and `.eml` mail; with `start:distributed`, its PostgreSQL, Redis and Kafka data; `:memory:` keeps embedded databases in memory (tests)', default: './.data' }),
  DATABASE_URL: Variable.string({ description: 'PostgreSQL for every service without a `<SERVICE>_DATABASE_URL`', defaultText: 'embedded PGlite', secret: true, production: 'unless each service has its `<SERVICE>_DATABASE_URL`' }),
  REDIS_URL: Variable.string({ description: 'shared rate-limit counters and the scraper\'s proxy quota', defaultText: 'in-process', pattern: /^rediss?:\/\//, hint: 'a redis:// URL' }),
  LOG_LEVEL: Variable.string({ description: 'pino level', defaultText: '`warn` locally, `info` in production' }),
  SHUTDOWN_TIMEOUT_SECONDS: Variable.integer({
    description: 'how long a stopping service (or `npm start`\'s gateway) waits for in-flight requests, background work and its outbox relay; a step still under way then is logged by name and left, and open connections are closed (the chart sets it per service)',
    default: 20, minimum: 1, maximum: 3600,
  }),
  INTERNAL_TOKEN: Variable.string({
    description: 'shared secret for service-to-service `/internal/*` calls, at least 24 characters in production',
    defaultText: 'generated per start', secret: true, production: true, example: 'an-internal-token-of-32-characters!',
  }),
  PUBLIC_URL: Variable.string({ description: 'the product\'s public address (links in emails, referral links)', defaultText: '`http://localhost:$PORT`', base: true, example: 'https://leadforge.example' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Variable.string({ description: 'OpenTelemetry trace export (OTLP over HTTP)', defaultText: 'off' }),
  LEADFORGE_STAND_INS: Variable.boolean({
    description: '`true` lets a production-mode process use the labelled stand-ins (test checkout, test robot check, test payouts, `.eml` mail, crawling loopback sites) where credentials are missing; refused unless `PUBLIC_URL` is a loopback address',
    default: false, defaultText: '`false`; `start:distributed` sets it while `PUBLIC_URL` is loopback',
  }),
  TRUSTED_PROXIES: Variable.list({
    description: 'addresses or CIDRs whose `X-Forwarded-For` a service believes (in a cluster: the gateway pods); on loopback only a gateway that sends the internal token is believed',
    default: [], defaultText: 'unset',
  }),
  CLOCK_FILE: Variable.string({
    description: 'a file holding how many milliseconds the service\'s clock runs ahead of the machine\'s, read at each use, for tests that move time (link expiries, held commissions); refused in production without the stand-ins',
    defaultText: 'unset: the machine\'s clock',
  }),
  API_KEY_REQUESTS_PER_MINUTE: Variable.integer({ description: 'requests one API key may make per minute, all routes together', default: 120, minimum: 1 }),
  ...KafkaVariables.properties,
});

/** The variables named after a service (`AUTH_URL`, `AUTH_PORT`, `AUTH_DATABASE_URL`); the docs list them as `<SERVICE>_...`. */
export function serviceVariables(name: string) {
  const upper = name.toUpperCase();
  return Type.Object({
    [`${upper}_URL`]: Variable.string({ description: 'where a service is reached by the others, e.g. `AUTH_URL`', defaultText: 'set by the launcher', base: true }),
    [`${upper}_PORT`]: Variable.integer({ description: 'the port a service listens on (0: a free one)', defaultText: 'set by the launcher; `PORT` with the service runner', minimum: 0, maximum: 65535 }),
    [`${upper}_DATABASE_URL`]: Variable.string({ description: 'PostgreSQL for one service, before `DATABASE_URL`', defaultText: 'embedded PGlite', secret: true, production: 'unless `DATABASE_URL` is set' }),
  });
}

/** Every service's named variables at once: each service reads its own and the others' URLs. */
const EveryServiceVariables = Type.Object(Object.assign({}, ...SERVICES.map((name) => serviceVariables(name).properties)));

type KitVariables = Static<typeof KitVariables>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `LEADFORGE_STAND_INS=true` lets a production-shaped run on one machine (`npm run start:distributed`)
 * use the labelled stand-ins production otherwise refuses: the built-in test checkout, the test robot
 * check, test payouts, crawling loopback sites. Only while the product's public address is loopback,
 * so a deployment that serves the public can never switch them on.
 */
function standInsOf(vars: Pick<KitVariables, 'LEADFORGE_STAND_INS'>, publicUrl: string, problems: ConfigProblems): boolean {
  if (!vars.LEADFORGE_STAND_INS) return false;
  const host = new URL(publicUrl).hostname.toLowerCase();
  if (!LOOPBACK_HOSTS.has(host) && !/^127\.\d+\.\d+\.\d+$/.test(host)) {
    problems.add('LEADFORGE_STAND_INS', `is only allowed while PUBLIC_URL is a loopback address (it is ${publicUrl})`);
    return false;
  }
  return true;
}

/** Whether the labelled stand-ins are allowed (see `LEADFORGE_STAND_INS`); false when the variables say otherwise or are bad. */
export function standInsAllowed(env: NodeJS.ProcessEnv): boolean {
  return collectConfig((problems) => {
    const vars = readVariables(KitVariables, env, problems);
    return standInsOf(vars, vars.PUBLIC_URL ?? 'http://localhost', problems);
  });
}

/** SHUTDOWN_TIMEOUT_SECONDS, in milliseconds: how long a stop may take in all. */
export function shutdownTimeoutMsOf(env: NodeJS.ProcessEnv): number {
  return loadVariable(KitVariables, 'SHUTDOWN_TIMEOUT_SECONDS', env) * 1000;
}

/** INTERNAL_TOKEN, or locally one generated per start (shared by everything in this process); required in production. */
export function internalTokenOf(vars: Pick<KitVariables, 'NODE_ENV' | 'INTERNAL_TOKEN'>, problems: ConfigProblems): string {
  const production = vars.NODE_ENV === 'production';
  const internalToken = vars.INTERNAL_TOKEN ?? localInternalToken;
  if (production && !vars.INTERNAL_TOKEN) problems.add('INTERNAL_TOKEN', 'is required (the shared secret services use on /internal routes)');
  else if (production && internalToken.length < 24) problems.add('INTERNAL_TOKEN', 'must be at least 24 characters in production');
  return internalToken;
}

/** The kit's configuration of one service, its problems added to `problems`. */
export function kitConfigFrom(service: ServiceName, env: NodeJS.ProcessEnv, problems: ConfigProblems): KitConfig {
  const vars = readVariables(KitVariables, env, problems);
  const named = readVariables(EveryServiceVariables, env, problems) as Record<string, string | number | undefined>;
  const production = vars.NODE_ENV === 'production';
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  for (const name of SERVICES) {
    const url = named[`${name.toUpperCase()}_URL`] as string | undefined;
    if (url) serviceUrls[name] = url;
  }
  const upper = service.toUpperCase();
  const internalToken = internalTokenOf(vars, problems);
  const publicUrl = vars.PUBLIC_URL ?? `http://localhost:${vars.PORT || 8080}`;
  const databaseUrl = (named[`${upper}_DATABASE_URL`] as string | undefined) ?? vars.DATABASE_URL;
  if (production && !databaseUrl) problems.add(`${upper}_DATABASE_URL`, 'or DATABASE_URL is required in production');
  const kafka = kafkaConfigFrom(vars, problems, service);
  const standIns = standInsOf(vars, publicUrl, problems);
  if (production && !standIns && vars.CLOCK_FILE) problems.add('CLOCK_FILE', 'is for tests: production keeps the machine\'s clock');
  return {
    service,
    production,
    host: vars.SERVICE_HOST,
    port: (named[`${upper}_PORT`] as number | undefined) ?? 0,
    dataDir: vars.DATA_DIR,
    databaseUrl,
    kafkaBrokers: kafka?.brokers,
    kafka,
    redisUrl: vars.REDIS_URL,
    logLevel: vars.LOG_LEVEL ?? (production ? 'info' : 'warn'),
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    internalToken,
    serviceUrls,
    publicUrl,
    otlpEndpoint: vars.OTEL_EXPORTER_OTLP_ENDPOINT,
    requireRealProviders: production && !standIns,
    trustedProxies: vars.TRUSTED_PROXIES,
    apiKeyRequestsPerMinute: vars.API_KEY_REQUESTS_PER_MINUTE,
    clockFile: vars.CLOCK_FILE,
  };
}

/** The kit's configuration of one service alone, every problem thrown together. */
export function loadKitConfig(service: ServiceName, env: NodeJS.ProcessEnv = process.env): KitConfig {
  return collectConfig((problems) => kitConfigFrom(service, env, problems));
}

/** Outside production a process makes its own internal token; every service in it shares it. */
const localInternalToken = crypto.randomBytes(24).toString('hex');

import crypto from 'node:crypto';
import type { ServiceName } from '@leadforge/contracts';
import { kafkaBrokers } from './kafkaConfig.ts';
import { ConfigError, readBool, readInt, readVar } from './environment.ts';

/** What every service reads from the environment. */
export interface KitConfig {
  service: ServiceName;
  production: boolean;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  kafkaBrokers?: string[];
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
}

const URL_PATTERN = /^https?:\/\/[^\s]+$/;

/** SHUTDOWN_TIMEOUT_SECONDS, in milliseconds: how long a stop may take in all. */
export function shutdownTimeoutMsOf(env: NodeJS.ProcessEnv): number {
  return readInt(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 1, 3600) * 1000;
}

export function loadKitConfig(service: ServiceName, env: NodeJS.ProcessEnv = process.env): KitConfig {
  const production = env.NODE_ENV === 'production';
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  for (const name of ['auth', 'billing', 'leads', 'scraper', 'affiliate', 'contact', 'admin'] as ServiceName[]) {
    const url = readVar(env, `${name.toUpperCase()}_URL`, { pattern: URL_PATTERN, hint: 'an http(s) URL' });
    if (url) serviceUrls[name] = url.replace(/\/$/, '');
  }
  const internalToken = readVar(env, 'INTERNAL_TOKEN', {
    required: production,
    hint: 'the shared secret services use on /internal routes',
  }) ?? localInternalToken;
  if (production && internalToken.length < 24) throw new ConfigError('INTERNAL_TOKEN', 'must be at least 24 characters in production');
  const publicUrl = (readVar(env, 'PUBLIC_URL', { pattern: URL_PATTERN }) ?? `http://localhost:${env.PORT || 8080}`).replace(/\/$/, '');
  const brokers = kafkaBrokers(env);
  const databaseUrl = readVar(env, `${service.toUpperCase()}_DATABASE_URL`) ?? readVar(env, 'DATABASE_URL');
  if (production && !databaseUrl) throw new ConfigError(`${service.toUpperCase()}_DATABASE_URL`, 'or DATABASE_URL is required in production');
  return {
    service,
    production,
    host: readVar(env, 'SERVICE_HOST', { default: '127.0.0.1' })!,
    port: readInt(env, `${service.toUpperCase()}_PORT`, 0, 0, 65535),
    dataDir: readVar(env, 'DATA_DIR', { default: './.data' })!,
    databaseUrl,
    kafkaBrokers: brokers.length ? brokers : undefined,
    redisUrl: readVar(env, 'REDIS_URL', { pattern: /^rediss?:\/\//, hint: 'a redis:// URL' }),
    logLevel: readVar(env, 'LOG_LEVEL', { default: production ? 'info' : 'warn' })!,
    shutdownTimeoutMs: shutdownTimeoutMsOf(env),
    internalToken,
    serviceUrls,
    publicUrl,
    otlpEndpoint: readVar(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
    requireRealProviders: production && !standInsAllowed(env, publicUrl),
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `LEADFORGE_STAND_INS=true` lets a production-shaped run on one machine (`npm run start:distributed`)
 * use the labelled stand-ins production otherwise refuses: the built-in test checkout, the test robot
 * check, test payouts, crawling loopback sites. Only while the product's public address is loopback,
 * so a deployment that serves the public can never switch them on.
 */
export function standInsAllowed(env: NodeJS.ProcessEnv, publicUrl = readVar(env, 'PUBLIC_URL', { default: 'http://localhost' })!): boolean {
  if (!readBool(env, 'LEADFORGE_STAND_INS', false)) return false;
  const host = new URL(publicUrl).hostname.toLowerCase();
  if (!LOOPBACK_HOSTS.has(host) && !/^127\.\d+\.\d+\.\d+$/.test(host)) {
    throw new ConfigError('LEADFORGE_STAND_INS', `is only allowed while PUBLIC_URL is a loopback address (it is ${publicUrl})`);
  }
  return true;
}

/** Outside production a process makes its own internal token; every service in it shares it. */
const localInternalToken = crypto.randomBytes(24).toString('hex');

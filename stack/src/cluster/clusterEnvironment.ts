/**
 * The product variables of the launcher's environment that reach the pods, as start:distributed
 * passes them to its processes: provider addresses (NOMINATIM_URL, PAYPAL_API_BASE...), sources,
 * limits. The chart sets what belongs to the cluster itself (databases, brokers, service addresses,
 * ports); a variable a service's `secretEnv` names in the chart goes to the Secret, never the ConfigMap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** Prefixes of the variables the services read (README, Configuration). */
const PRODUCT_PREFIXES = [
  'AUTH_', 'BILLING_', 'LEADS_', 'SCRAPER_', 'AFFILIATE_', 'CONTACT_', 'ADMIN_', 'MONITORS_', 'PAYPAL_', 'RECAPTCHA_',
  'NOMINATIM_', 'OVERPASS_', 'GOOGLE_PLACES_', 'DECODO_', 'PLACES_', 'EMAIL_', 'SMTP_', 'MAIL_', 'OTEL_', 'API_KEY_',
];
const PRODUCT_NAMES = new Set(['LOG_LEVEL', 'ACCESS_TOKEN_TTL_SECONDS', 'ADMIN_EMAILS', 'JWT_PRIVATE_KEY']);
/** What the chart (or the cluster launcher) decides: never taken from the launcher's environment. */
const CLUSTER_OWNED = /^(PORT|DATA_DIR|NODE_ENV|PUBLIC_URL|INTERNAL_TOKEN|REDIS_URL|DATABASE_URL|[A-Z]+_DATABASE_URL|(AUTH|BILLING|LEADS|SCRAPER|AFFILIATE|CONTACT|ADMIN)_URL|KAFKA_\w+|SHUTDOWN_TIMEOUT_SECONDS|SCRAPER_CONCURRENCY|SCRAPER_JOBS_PER_REPLICA|TRUSTED_PROXIES)$/;

export interface PassedEnvironment {
  config: Record<string, string>;
  secrets: Record<string, string>;
}

function secretKeys(chartDir: string): Set<string> {
  const values = parse(fs.readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as { services: Record<string, { secretEnv?: string[] } | null> };
  return new Set(Object.values(values.services).flatMap((svc) => svc?.secretEnv ?? []));
}

export function passedEnvironment(env: NodeJS.ProcessEnv, chartDir: string): PassedEnvironment {
  const secrets = secretKeys(chartDir);
  const out: PassedEnvironment = { config: {}, secrets: {} };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || CLUSTER_OWNED.test(name)) continue;
    if (!PRODUCT_NAMES.has(name) && !PRODUCT_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    (secrets.has(name) ? out.secrets : out.config)[name] = value;
  }
  return out;
}

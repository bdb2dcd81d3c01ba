import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { variablesOf } from '@leadforge/kit/config';
import { CONFIGURATION_DOC, configurationDoc, configurationSections } from '../../stack/src/configuration/configurationDoc.ts';

const CHART = path.resolve(new URL('../../charts/leadforge', import.meta.url).pathname);

/**
 * Variables the chart does not name, each group with its reason. Any of them can still be set in a
 * cluster through the chart's `config` map (or a service's `env`); a variable not here must be named
 * in values.yaml or a template.
 */
const NOT_FOR_THE_CHART: Record<string, string[]> = {
  'tuning whose default fits a cluster (set through `config.<NAME>` when needed)': [
    'API_KEY_REQUESTS_PER_MINUTE', 'KAFKA_PUBLISH_TIMEOUT_MS', 'KAFKA_SESSION_TIMEOUT_MS', 'KAFKA_HEARTBEAT_INTERVAL_MS', 'KAFKA_CONSUMER_CONCURRENCY',
    'AUTH_REGISTER_PER_IP_PER_HOUR', 'AUTH_LOGIN_PER_IP_PER_MINUTE', 'AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES', 'AUTH_PASSWORD_RESET_PER_IP_PER_HOUR',
    'AUTH_PASSWORD_RESET_PER_EMAIL_PER_HOUR', 'AUTH_PASSWORD_CHANGE_PER_USER_PER_15_MINUTES', 'AUTH_ACCOUNT_EXPORT_PER_USER_PER_15_MINUTES', 'MAIL_RETRY_BASE_SECONDS',
    'PAYPAL_TIMEOUT_MS', 'PAYPAL_RETRIES', 'BILLING_SIGNUP_WAIT_MS', 'BILLING_ORDERS_PER_USER_PER_HOUR', 'BILLING_PROMO_ORDERS_PER_IP_PER_HOUR',
    'AFFILIATE_APPLY_PER_IP_PER_HOUR', 'AFFILIATE_VISITS_PER_IP_PER_MINUTE', 'AFFILIATE_MATURING_SWEEP_MS', 'CONTACT_PER_IP_PER_HOUR', 'ADMIN_CATCH_UP_MS',
    'SCRAPER_GEOCODE_CACHE_HOURS', 'EMAIL_MX_TIMEOUT_MS', 'EMAIL_SMTP_CHECK', 'EMAIL_ACCEPT_ALL_CHECK', 'EMAIL_SMTP_PROBE_PORT', 'EMAIL_SMTP_PROBE_TIMEOUT_MS', 'EMAIL_SMTP_PROBE_HELO', 'EMAIL_SMTP_PROBE_SENDER',
    'EMAIL_SMTP_GREYLIST_RETRY_MS', 'EMAIL_SMTP_MX_INTERVAL_MS', 'EMAIL_SMTP_MX_PROBES_PER_HOUR', 'EMAIL_SMTP_MX_MAX_WAIT_MS', 'EMAIL_VERDICT_CACHE_HOURS',
    'EMAIL_UNKNOWN_CACHE_MINUTES', 'EMAIL_ACCEPT_ALL_CACHE_HOURS',
    'SCRAPER_QUOTA_REDIS_KEY', 'SCRAPER_USER_AGENT', 'SCRAPER_CONTACT_PAGES', 'SCRAPER_PAGES_PER_SITE', 'SCRAPER_PER_HOST_CONCURRENCY', 'SCRAPER_PER_HOST_DELAY_MS',
    'SCRAPER_MAX_CRAWL_DELAY_MS', 'SCRAPER_CONNECT_TIMEOUT_MS', 'SCRAPER_TIMEOUT_MS', 'SCRAPER_MAX_RESPONSE_BYTES', 'SCRAPER_MAX_RETRIES', 'SCRAPER_MAX_RETRY_AFTER_MS',
    'SCRAPER_PARSE_WORKERS', 'SCRAPER_PARSE_TIMEOUT_MS', 'SCRAPER_PARSE_MAX_DEPTH', 'SCRAPER_PLACE_CONCURRENCY', 'SCRAPER_JOB_LEASE_MS', 'SCRAPER_JOB_POLL_MS',
    'SCRAPER_JOB_MAX_ATTEMPTS', 'SCRAPER_LEAD_BATCH_SIZE', 'SCRAPER_LEAD_BATCH_MS', 'LEADS_SEARCH_DEADLINE_SECONDS', 'LEADS_DEADLINE_GRACE_MS',
    'LEADS_MAX_RUNNING_PER_USER', 'LEADS_STARTS_PER_MINUTE', 'LEADS_SWEEP_MS', 'LEADS_STUCK_RESERVATION_MS', 'LEADS_OWNERSHIP_WINDOW_DAYS', 'LEADS_OPT_OUTS_PER_HOUR',
    'LEADS_INTAKE_RETRY_MS', 'LEADS_WEBHOOK_TIMEOUT_MS', 'LEADS_WEBHOOK_RETRY_BASE_MS', 'LEADS_WEBHOOK_RETRY_FOR_MS', 'LEADS_WEBHOOK_POLL_MS',
    'MONITORS_TICK_SECONDS', 'MONITORS_SPREAD_SECONDS', 'MONITORS_RUNS_AT_ONCE', 'MONITORS_LEASE_MS', 'EMAIL_MX_RESOLVER', 'RECAPTCHA_HOSTNAMES',
    'PAYPAL_LIVE_API_BASE', 'DECODO_PROXY_CHECK_URL',
  ],
  'the chart runs its own Kafka without SASL, TLS or a shared cluster\'s prefix': [
    'KAFKA_TOPIC_PREFIX', 'KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SSL', 'KAFKA_SSL_CA_FILE',
  ],
  'the chart gives each service its own `<SERVICE>_DATABASE_URL`': ['DATABASE_URL'],
  'refused in production or only for loopback runs': ['LEADFORGE_STAND_INS', 'LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS', 'CLOCK_FILE'],
  'the older form of `PLACES_SOURCES`, which the chart sets': ['PLACES_SOURCE'],
  'read by the local launchers only': ['SCRAPER_REPLICAS', 'PROMETHEUS_RULE_TIME_SCALE', 'LEADFORGE_RUNTIME', 'PROMETHEUS_INTERVAL'],
  'the local gateway\'s: a cluster serves the web app from its image': ['WEB_DIST'],
  'a service of the chart listens on `PORT` (the service runner)': ['<SERVICE>_PORT'],
};

function chartText(): string {
  const templates = path.join(CHART, 'templates');
  return [path.join(CHART, 'values.yaml'), ...fs.readdirSync(templates).map((file) => path.join(templates, file))]
    .map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** The chart names `<SERVICE>_URL` and `<SERVICE>_DATABASE_URL` as `{{ upper $name }}_URL` and `{{ $upper }}_DATABASE_URL`. */
const namedIn = (text: string, variable: string) => (variable.startsWith('<SERVICE>')
  ? new RegExp(`(upper \\$name|\\$upper) }}${variable.slice('<SERVICE>'.length)}\\b`).test(text)
  : new RegExp(`\\b${variable}\\b`).test(text));

describe('the configuration', () => {
  const variables = [...new Set(configurationSections().flatMap(({ schema }) => variablesOf(schema).map(([name]) => name)))];

  it('is documented from its schemas: docs/configuration.md is what npm run docs:config writes', () => {
    expect(fs.readFileSync(CONFIGURATION_DOC, 'utf8'), 'docs/configuration.md is stale: run npm run docs:config').toBe(configurationDoc());
  });

  it('names every variable in the chart, or lists it here as not for the chart', () => {
    const text = chartText();
    const notForTheChart = new Set(Object.values(NOT_FOR_THE_CHART).flat());
    expect(variables.filter((name) => !namedIn(text, name) && !notForTheChart.has(name))).toEqual([]);
    // The list stays true: each name is a variable, and one the chart does not name.
    expect([...notForTheChart].filter((name) => !variables.includes(name) || namedIn(text, name))).toEqual([]);
  });
});

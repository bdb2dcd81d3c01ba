import { Type } from 'typebox';
import { readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';
import { mailConfigFrom, MailVariables, type MailConfig } from '@leadforge/kit/mail';

/** Every variable the leads service reads besides the kit's. */
export const LeadsVariables = Type.Object({
  // "Your leads are ready" and the monitors' notices.
  ...MailVariables,
  LEADS_SEARCH_DEADLINE_SECONDS: Variable.integer({ description: 'how long the engine has for a search; then the search ends with what it has', default: 120, minimum: 1, maximum: 3600 }),
  LEADS_DEADLINE_GRACE_MS: Variable.integer({ description: 'extra time past the deadline for the engine\'s own `scrape.finished` to arrive', default: 5000, minimum: 0, maximum: 600_000 }),
  LEADS_MAX_RUNNING_PER_USER: Variable.integer({ description: 'searches one user may have running at once', default: 2, minimum: 1, maximum: 100 }),
  LEADS_STARTS_PER_MINUTE: Variable.integer({ description: 'searches one user may start per minute', default: 10, minimum: 1, maximum: 10_000 }),
  LEADS_SWEEP_MS: Variable.integer({ description: 'how often the sweeper looks for searches past their deadline and credits left held', default: 1000, minimum: 50, maximum: 600_000 }),
  LEADS_STUCK_RESERVATION_MS: Variable.integer({ description: 'a search stuck before its credits were held is cleaned up after this', default: 30_000, minimum: 1000, maximum: 3_600_000 }),
  LEADS_OWNERSHIP_WINDOW_DAYS: Variable.integer({ description: 'a business the user got within this many days is not charged again (`0`: ownership off)', default: 90, minimum: 0, maximum: 3650 }),
  LEADS_OPT_OUTS_PER_HOUR: Variable.integer({ description: 'opt-out requests one address may send per hour', default: 10, minimum: 1, maximum: 100_000 }),
  LEADS_INTAKE_RETRY_MS: Variable.integer({ description: 'how long leads that cannot be stored are tried again before their search fails with nothing charged', default: 10_000, minimum: 100, maximum: 15 * 60_000 }),
  LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: Variable.boolean({ description: '`true` lets webhook endpoints be on loopback or private addresses (tests; refused in production)', default: false }),
  LEADS_WEBHOOK_TIMEOUT_MS: Variable.integer({ description: 'a webhook attempt without a complete answer by then has failed', default: 10_000, minimum: 100, maximum: 60_000 }),
  LEADS_WEBHOOK_RETRY_BASE_MS: Variable.integer({ description: 'the first webhook retry waits this long, each next one twice as long (up to 4 hours)', default: 30_000, minimum: 100, maximum: 60_000 }),
  LEADS_WEBHOOK_RETRY_FOR_MS: Variable.integer({ description: 'a webhook delivery is retried for this long after its event, then marked failed', default: 24 * 3600_000, minimum: 1000, maximum: 7 * 24 * 3600_000 }),
  LEADS_WEBHOOK_POLL_MS: Variable.integer({ description: 'how often due webhook deliveries are looked for', default: 1000, minimum: 50, maximum: 60_000 }),
  MONITORS_TICK_SECONDS: Variable.integer({ description: 'how often due monitors are looked for', default: 60, minimum: 1, maximum: 3600 }),
  MONITORS_SPREAD_SECONDS: Variable.integer({ description: 'a scheduled run starts at a random moment within this long after its due time', default: 900, minimum: 0, maximum: 6 * 3600 }),
  MONITORS_RUNS_AT_ONCE: Variable.integer({ description: 'monitor runs one replica starts at once', default: 4, minimum: 1, maximum: 64 }),
  MONITORS_LEASE_MS: Variable.integer({ description: 'how long a claimed monitor is left to one replica', default: 60_000, minimum: 1000, maximum: 3_600_000 }),
});

/** What the leads service reads from the environment, checked once at start. */
export interface LeadsConfig {
  /** How long the engine has for a search; after it (plus the grace) the search ends with what it has. */
  searchDeadlineMs: number;
  /** Extra time past the deadline for the engine's own `scrape.finished` to arrive. */
  deadlineGraceMs: number;
  /** Searches one user may have running at once. */
  maxRunningPerUser: number;
  /** Searches one user may start per minute. */
  startsPerMinute: number;
  /** How often the sweeper looks for searches past their deadline and credits left held. */
  sweepMs: number;
  /** A search stuck before its credits were held (billing never answered) is cleaned up after this. */
  stuckReservationMs: number;
  /** A business the user got within this many days is not charged again (0: ownership off). */
  ownershipWindowDays: number;
  /** Opt-out requests one address may send per hour. */
  optOutsPerHour: number;
  /**
   * How long leads from the engine that cannot be stored are tried again (a database restart); then
   * their search fails with nothing charged, rather than keep its user waiting for the deadline.
   */
  intakeRetryMs: number;
  webhooks: WebhooksConfig;
  monitors: MonitorsConfig;
  mail: MailConfig;
}

/** How the monitor scheduler looks for due monitors and spreads their runs (docs/monitors.md). */
export interface MonitorsConfig {
  /** How often due monitors are looked for (MONITORS_TICK_SECONDS). */
  tickMs: number;
  /** A scheduled run starts at a random moment within this long after its due time, so monitors due together start apart. */
  spreadMs: number;
  /** Runs one replica starts at once. */
  parallel: number;
  /** How long a claimed monitor is left to one replica (a dead replica's run is taken over after it). */
  leaseMs: number;
}

/** How webhook deliveries are sent and retried. */
export interface WebhooksConfig {
  /** Let endpoints on loopback / private addresses (local receivers in tests only; refused in production). */
  allowPrivateNetworks: boolean;
  /** An attempt without a complete answer by then counts as failed (timeout). */
  timeoutMs: number;
  /** The first retry waits this long, each next one twice as long (up to 4 hours). */
  retryBaseMs: number;
  /** A delivery is retried for this long after its event, then marked failed. */
  retryForMs: number;
  /** How often due deliveries are looked for (a new one is sent at once on this replica). */
  pollMs: number;
}

/** The leads service's configuration; `kit.requireRealProviders`: production without the labelled stand-ins. */
export function leadsConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { publicUrl: string; requireRealProviders: boolean }): LeadsConfig {
  const vars = readVariables(LeadsVariables, env, problems);
  if (vars.LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS && kit.requireRealProviders) problems.add('LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS', 'must not be true in production');
  return {
    searchDeadlineMs: vars.LEADS_SEARCH_DEADLINE_SECONDS * 1000,
    deadlineGraceMs: vars.LEADS_DEADLINE_GRACE_MS,
    maxRunningPerUser: vars.LEADS_MAX_RUNNING_PER_USER,
    startsPerMinute: vars.LEADS_STARTS_PER_MINUTE,
    sweepMs: vars.LEADS_SWEEP_MS,
    stuckReservationMs: vars.LEADS_STUCK_RESERVATION_MS,
    ownershipWindowDays: vars.LEADS_OWNERSHIP_WINDOW_DAYS,
    optOutsPerHour: vars.LEADS_OPT_OUTS_PER_HOUR,
    intakeRetryMs: vars.LEADS_INTAKE_RETRY_MS,
    webhooks: {
      allowPrivateNetworks: vars.LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: vars.LEADS_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: vars.LEADS_WEBHOOK_RETRY_BASE_MS,
      retryForMs: vars.LEADS_WEBHOOK_RETRY_FOR_MS,
      pollMs: vars.LEADS_WEBHOOK_POLL_MS,
    },
    monitors: {
      tickMs: vars.MONITORS_TICK_SECONDS * 1000,
      spreadMs: vars.MONITORS_SPREAD_SECONDS * 1000,
      parallel: vars.MONITORS_RUNS_AT_ONCE,
      leaseMs: vars.MONITORS_LEASE_MS,
    },
    mail: mailConfigFrom(vars, problems, kit),
  };
}

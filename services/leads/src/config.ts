import { ConfigError, readBool, readInt, standInsAllowed } from '@leadforge/kit/config';

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

export function loadLeadsConfig(env: NodeJS.ProcessEnv): LeadsConfig {
  return {
    searchDeadlineMs: readInt(env, 'LEADS_SEARCH_DEADLINE_SECONDS', 120, 1, 3600) * 1000,
    deadlineGraceMs: readInt(env, 'LEADS_DEADLINE_GRACE_MS', 5000, 0, 600_000),
    maxRunningPerUser: readInt(env, 'LEADS_MAX_RUNNING_PER_USER', 2, 1, 100),
    startsPerMinute: readInt(env, 'LEADS_STARTS_PER_MINUTE', 10, 1, 10_000),
    sweepMs: readInt(env, 'LEADS_SWEEP_MS', 1000, 50, 600_000),
    stuckReservationMs: readInt(env, 'LEADS_STUCK_RESERVATION_MS', 30_000, 1000, 3_600_000),
    ownershipWindowDays: readInt(env, 'LEADS_OWNERSHIP_WINDOW_DAYS', 90, 0, 3650),
    optOutsPerHour: readInt(env, 'LEADS_OPT_OUTS_PER_HOUR', 10, 1, 100_000),
    intakeRetryMs: readInt(env, 'LEADS_INTAKE_RETRY_MS', 10_000, 100, 15 * 60_000),
    webhooks: loadWebhooksConfig(env),
    monitors: {
      tickMs: readInt(env, 'MONITORS_TICK_SECONDS', 60, 1, 3600) * 1000,
      spreadMs: readInt(env, 'MONITORS_SPREAD_SECONDS', 900, 0, 6 * 3600) * 1000,
      parallel: readInt(env, 'MONITORS_RUNS_AT_ONCE', 4, 1, 64),
      leaseMs: readInt(env, 'MONITORS_LEASE_MS', 60_000, 1000, 3_600_000),
    },
  };
}

function loadWebhooksConfig(env: NodeJS.ProcessEnv): WebhooksConfig {
  const allowPrivateNetworks = readBool(env, 'LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS', false);
  if (allowPrivateNetworks && env.NODE_ENV === 'production' && !standInsAllowed(env)) {
    throw new ConfigError('LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS', 'must not be true in production');
  }
  return {
    allowPrivateNetworks,
    timeoutMs: readInt(env, 'LEADS_WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retryBaseMs: readInt(env, 'LEADS_WEBHOOK_RETRY_BASE_MS', 30_000, 100, 60_000),
    retryForMs: readInt(env, 'LEADS_WEBHOOK_RETRY_FOR_MS', 24 * 3600_000, 1000, 7 * 24 * 3600_000),
    pollMs: readInt(env, 'LEADS_WEBHOOK_POLL_MS', 1000, 50, 60_000),
  };
}

import { readInt } from '@leadforge/kit';

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
}

export function loadLeadsConfig(env: NodeJS.ProcessEnv): LeadsConfig {
  return {
    searchDeadlineMs: readInt(env, 'LEADS_SEARCH_DEADLINE_SECONDS', 120, 1, 3600) * 1000,
    deadlineGraceMs: readInt(env, 'LEADS_DEADLINE_GRACE_MS', 5000, 0, 600_000),
    maxRunningPerUser: readInt(env, 'LEADS_MAX_RUNNING_PER_USER', 2, 1, 100),
    startsPerMinute: readInt(env, 'LEADS_STARTS_PER_MINUTE', 10, 1, 10_000),
    sweepMs: readInt(env, 'LEADS_SWEEP_MS', 1000, 50, 600_000),
    stuckReservationMs: readInt(env, 'LEADS_STUCK_RESERVATION_MS', 30_000, 1000, 3_600_000),
  };
}

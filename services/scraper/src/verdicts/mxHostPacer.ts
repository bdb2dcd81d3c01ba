/** How often one MX host may be asked: a pause between probes, a cap per hour, and how long a probe may wait its turn. */
export interface MxPacing {
  /** At least this long between the starts of two probes of one host. */
  intervalMs: number;
  /** Probes of one host in any hour at most; past it the verdict is `unknown` rather than another probe. */
  perHour: number;
  /** A probe whose turn comes later than this is not made (the verdict is `unknown`). */
  maxWaitMs: number;
}

export type PacedTurn = { granted: true; release(closed: Promise<void>): void } | { granted: false; reason: 'capped' | 'paced' };

const HOUR_MS = 60 * 60 * 1000;

/**
 * Turns at each MX host: one connection at a time, starts `intervalMs` apart, at most `perHour` an
 * hour. A mail server that sees a burst of RCPTs from one address blocks it, so the product spaces
 * its probes as a careful sender would, and says `unknown` rather than asking too often.
 */
export function createMxHostPacer(pacing: MxPacing) {
  const hosts = new Map<string, { nextStart: number; lastStart: number; starts: number[]; busy: Promise<void> }>();
  return async (host: string): Promise<PacedTurn> => {
    const now = Date.now();
    const state = hosts.get(host) ?? { nextStart: 0, lastStart: -Infinity, starts: [], busy: Promise.resolve() };
    hosts.set(host, state);
    while (state.starts.length && state.starts[0] <= now - HOUR_MS) state.starts.shift();
    if (state.starts.length >= pacing.perHour) return { granted: false, reason: 'capped' };
    const slot = Math.max(now, state.nextStart);
    if (slot - now > pacing.maxWaitMs) return { granted: false, reason: 'paced' };
    state.nextStart = slot + pacing.intervalMs;
    state.starts.push(slot);
    // The previous connection to this host must have closed, and the slot come.
    const previous = state.busy;
    let release!: (closed: Promise<void>) => void;
    const done = new Promise<void>((resolve) => { release = (closed) => void closed.then(resolve, resolve); });
    state.busy = previous.then(() => done);
    await previous;
    // A previous probe that started late (it waited for the one before it) still gets its full interval.
    const wait = Math.max(slot, state.lastStart + pacing.intervalMs) - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    state.lastStart = Date.now();
    return { granted: true, release };
  };
}

/** Waits for a turn at a host; a granted turn must be released with the connection's `closed`. */
export type MxHostPacer = ReturnType<typeof createMxHostPacer>;

/** A counting semaphore: at most `limit` holders at once, the others wait in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    // A releasing holder hands its slot straight to us (it stays counted), so a newcomer arriving
    // before we resume cannot take it too.
    else await waitTurn(this.waiting, signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}

function waitTurn(queue: (() => void)[], signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      const index = queue.indexOf(turn);
      if (index >= 0) queue.splice(index, 1);
      reject(signal!.reason);
    };
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(turn);
  });
}

interface HostState {
  active: number;
  /** Earliest time the next request to this host may start. */
  nextStartAt: number;
  waiting: (() => void)[];
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
  signal?.addEventListener('abort', onAbort, { once: true });
});

/**
 * Politeness per host: at most `perHost` requests at once to one host, and request starts spaced
 * by the host's delay (the larger of the default and its robots.txt Crawl-delay). A global
 * semaphore bounds all requests; a request takes its host slot first so that waiting for a slow
 * host never holds a global slot idle.
 */
export class HostPacer {
  private readonly hosts = new Map<string, HostState>();
  private readonly global: Semaphore;

  constructor(private readonly options: { globalConcurrency: number; perHost: number; delayMs: number }) {
    this.global = new Semaphore(options.globalConcurrency);
  }

  async acquire(host: string, delayMs = this.options.delayMs, signal?: AbortSignal): Promise<() => void> {
    let state = this.hosts.get(host);
    if (!state) this.hosts.set(host, (state = { active: 0, nextStartAt: 0, waiting: [] }));
    const hostState = state;
    while (hostState.active >= this.options.perHost) await waitTurn(hostState.waiting, signal);
    hostState.active++;
    let releaseGlobal: (() => void) | undefined;
    try {
      // Claim the next start time before sleeping so concurrent requests queue behind each other.
      const startAt = Math.max(Date.now(), hostState.nextStartAt);
      hostState.nextStartAt = startAt + Math.max(delayMs, this.options.delayMs);
      if (startAt > Date.now()) await sleep(startAt - Date.now(), signal);
      releaseGlobal = await this.global.acquire(signal);
    } catch (error) {
      this.releaseHost(host, hostState);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      releaseGlobal!();
      this.releaseHost(host, hostState);
    };
  }

  private releaseHost(host: string, state: HostState): void {
    state.active--;
    const next = state.waiting.shift();
    if (next) return next();
    // Forget idle hosts once their spacing has passed, so a long crawl does not accumulate them.
    if (state.active === 0) {
      const forget = Math.max(0, state.nextStartAt - Date.now());
      setTimeout(() => {
        if (state.active === 0 && !state.waiting.length && this.hosts.get(host) === state && state.nextStartAt <= Date.now()) this.hosts.delete(host);
      }, forget + 10).unref();
    }
  }
}

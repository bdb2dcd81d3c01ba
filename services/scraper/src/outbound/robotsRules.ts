import { createRequire } from 'node:module';

interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}

// The package is CommonJS exporting the function itself, which its typings do not express.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, contents: string) => ParsedRobots;

/** What robots.txt says about one URL for our user agent. */
export interface RobotsVerdict {
  allowed: boolean;
  /** The site's Crawl-delay for us, capped; 0 when it sets none. */
  crawlDelayMs: number;
}

/** Fetches `/robots.txt`; `status` 0 means it could not be reached at all. */
export type RobotsFetch = (robotsUrl: string) => Promise<{ status: number; body: string }>;

interface Rules {
  verdict(url: string): RobotsVerdict;
}

const ALLOW_ALL: Rules = { verdict: () => ({ allowed: true, crawlDelayMs: 0 }) };
const DISALLOW_ALL: Rules = { verdict: () => ({ allowed: false, crawlDelayMs: 0 }) };

export interface RobotsRulesOptions {
  userAgent: string;
  maxCrawlDelayMs: number;
  /** How long a fetched (or missing) file is kept (default 1 h). */
  ttlMs?: number;
  /** How long a file that could not be had (5xx, timeout, connection failure) keeps the site disallowed before it is asked again (default 60 s). */
  unreachableTtlMs?: number;
  maxOrigins?: number;
}

/**
 * robots.txt per origin (RFC 9309), fetched once and cached: a missing file (4xx) allows
 * everything; an unreachable one (5xx, network failure) disallows the site, as the RFC asks, until
 * it is asked again a minute later: one timeout (the site's, or ours under load) does not keep a site
 * out of every search for the hour a file is kept. Crawl-delay is honoured up to a cap.
 */
export class RobotsRules {
  private readonly cache = new Map<string, { rules: Promise<Rules>; expires: number }>();
  private readonly ttlMs: number;
  private readonly unreachableTtlMs: number;
  private readonly maxOrigins: number;
  private readonly agentToken: string;

  constructor(private readonly fetchRobots: RobotsFetch, private readonly options: RobotsRulesOptions) {
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.unreachableTtlMs = options.unreachableTtlMs ?? 60 * 1000;
    this.maxOrigins = options.maxOrigins ?? 5_000;
    // Groups are matched on the product token ("LeadforgeBot"), not the whole header value.
    this.agentToken = options.userAgent.split(/[/\s]/)[0];
  }

  /** The verdict for a URL; a caller that gives up (signal) stops waiting, the shared fetch goes on. */
  async check(url: URL, signal?: AbortSignal): Promise<RobotsVerdict> {
    const rules = this.rulesFor(url.origin);
    if (!signal) return (await rules).verdict(url.href);
    signal.throwIfAborted();
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return (await Promise.race([rules, aborted])).verdict(url.href);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private rulesFor(origin: string): Promise<Rules> {
    const cached = this.cache.get(origin);
    if (cached && cached.expires > Date.now()) return cached.rules;
    const rules = this.load(origin);
    const entry = { rules, expires: Date.now() + this.ttlMs };
    this.cache.set(origin, entry);
    rules.then(
      (loaded) => { if (loaded === DISALLOW_ALL) entry.expires = Math.min(entry.expires, Date.now() + this.unreachableTtlMs); },
      // A fetch that could not be made (quota exhausted) says nothing about the site: do not keep it.
      () => { if (this.cache.get(origin) === entry) this.cache.delete(origin); },
    );
    if (this.cache.size > this.maxOrigins) this.cache.delete(this.cache.keys().next().value as string);
    return rules;
  }

  /** Fetched without any one caller's signal: several searches may be waiting for the same file. */
  private async load(origin: string): Promise<Rules> {
    const robotsUrl = `${origin}/robots.txt`;
    const { status, body } = await this.fetchRobots(robotsUrl);
    if (status >= 400 && status < 500) return ALLOW_ALL;
    if (status < 200 || status >= 300) return DISALLOW_ALL;
    const parsed = robotsParser(robotsUrl, body);
    return {
      verdict: (url) => {
        const delaySeconds = Number(parsed.getCrawlDelay(this.agentToken) ?? 0);
        return {
          allowed: parsed.isAllowed(url, this.agentToken) !== false,
          crawlDelayMs: Number.isFinite(delaySeconds) ? Math.min(Math.max(0, delaySeconds * 1000), this.options.maxCrawlDelayMs) : 0,
        };
      },
    };
  }
}

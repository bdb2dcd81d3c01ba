import { readInt } from '@leadforge/kit/config';
import { DEFAULT_MAX_DEPTH } from '../extract/index.ts';
import { cpuBudget } from './cpuBudget.ts';

/** How untrusted pages are parsed: off the event loop, within a time and a nesting budget. */
export interface ParseConfig {
  /** Worker threads of the process-wide parsing pool (the first runtime of a process sizes it). */
  workers: number;
  /** Time one page may take in a worker, from the moment the worker starts it; past it the worker is recycled. */
  timeoutMs: number;
  /** Element nesting past which a page is given up. */
  maxDepth: number;
}

/** One core (of those the process may use) is left to the event loop (HTTP, the bus, the database). */
export function loadParseConfig(env: NodeJS.ProcessEnv): ParseConfig {
  return {
    workers: readInt(env, 'SCRAPER_PARSE_WORKERS', Math.max(1, cpuBudget() - 1), 1, 64),
    timeoutMs: readInt(env, 'SCRAPER_PARSE_TIMEOUT_MS', 3_000, 1, 60_000),
    maxDepth: readInt(env, 'SCRAPER_PARSE_MAX_DEPTH', DEFAULT_MAX_DEPTH, 16, 5_000),
  };
}

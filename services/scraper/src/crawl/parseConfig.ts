import { DEFAULT_MAX_DEPTH } from '../extract/index.ts';
import type { ScraperConfig } from '../config.ts';
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

/** The configured parsing, its unset parts the defaults: one core (of those the process may use) is left to the event loop. */
export function parseConfigOf(configured: ScraperConfig['parse']): ParseConfig {
  return {
    workers: configured.workers ?? Math.max(1, cpuBudget() - 1),
    timeoutMs: configured.timeoutMs,
    maxDepth: configured.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
}

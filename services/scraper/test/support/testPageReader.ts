import pino from 'pino';
import { DEFAULT_MAX_DEPTH } from '../../src/extract/index.ts';
import { acquireParsePool } from '../../src/crawl/parsePool.ts';
import { createPageReader, type PageReader } from '../../src/crawl/pageReader.ts';

/** A page reader on the process's parsing pool, as a runtime makes it; `release` when done. */
export function testPageReader(options: { timeoutMs?: number; maxDepth?: number; onGivenUp?: PageReaderGivenUp } = {}): { reader: PageReader; release(): Promise<void> } {
  const lease = acquireParsePool(1);
  const reader = createPageReader({
    pool: lease.pool,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    onGivenUp: options.onGivenUp ?? (() => undefined),
    log: pino({ level: 'silent' }),
  });
  return { reader, release: lease.release };
}

type PageReaderGivenUp = Parameters<typeof createPageReader>[0]['onGivenUp'];

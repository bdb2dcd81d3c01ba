// Reads one page through the parsing pool and prints what it found: pageParsing.test.ts runs this
// in a child process started the ways the product starts (node --import tsx, tsx's loader by path,
// tsx registered in code), to show the workers load the TypeScript each way.
import pino from 'pino';
import { acquireParsePool } from '../../src/crawl/parsePool.ts';
import { createPageReader } from '../../src/crawl/pageReader.ts';

const lease = acquireParsePool(1);
const reader = createPageReader({ pool: lease.pool, timeoutMs: 30_000, maxDepth: 1_000, onGivenUp: () => undefined, log: pino({ level: 'silent' }) });
try {
  console.log(JSON.stringify(await reader.readPage('https://bright-dental.co.uk/', '<p>Email: desk@bright-dental.co.uk</p>', 'GB')));
} finally {
  await lease.release();
}

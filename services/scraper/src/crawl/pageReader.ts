import type { Logger } from 'pino';
import type { CountryCode, PageContacts } from '../extract/index.ts';
import type { HtmlSummary } from './htmlSummary.ts';
import { pagesGivenUp } from '../metrics.ts';
import { PageGivenUp, type GiveUpReason } from './pageGivenUp.ts';
import type { HomeReading, PageResult, PageTask } from './pageParseWorker.ts';
import type { ParsePool } from './parsePool.ts';

/** Reads fetched pages off the event loop; each method throws PageGivenUp for a page over budget. */
export interface PageReader {
  /** A home page's contacts and the contact pages it links to. */
  readHome(url: string, html: string, country: CountryCode | undefined, contactPages: number): Promise<HomeReading>;
  readPage(url: string, html: string, country: CountryCode | undefined): Promise<PageContacts>;
  /** The admin test scrape's view of a page. */
  summarise(url: string, status: number, html: string): Promise<HtmlSummary>;
}

export interface PageReaderOptions {
  pool: ParsePool;
  timeoutMs: number;
  maxDepth: number;
  /** Counts a page given up (the usage stats). */
  onGivenUp(url: string, reason: GiveUpReason): void;
  log: Logger;
}

export function createPageReader(options: PageReaderOptions): PageReader {
  const { pool, timeoutMs, maxDepth } = options;

  const giveUp = (url: string, reason: GiveUpReason, message: string): never => {
    pagesGivenUp.inc({ reason });
    options.onGivenUp(url, reason);
    options.log.info({ url, reason }, 'page given up');
    throw new PageGivenUp(reason, url, message);
  };

  async function read<T extends PageResult>(url: string, task: PageTask): Promise<T> {
    let answer;
    try {
      answer = await pool.run(task, timeoutMs, maxDepth);
    } catch (error) {
      options.log.warn({ err: error, url }, 'a parsing worker failed on a page');
      return giveUp(url, 'failed', `The page could not be read: ${(error as Error).message}`);
    }
    if (answer.ok) return answer.value as T;
    if ('timedOut' in answer) return giveUp(url, 'timeout', `The page took longer than ${timeoutMs} ms to read; it was given up`);
    return giveUp(url, 'too_deep', `The page nests elements more than ${answer.tooDeep} deep; it was given up`);
  }

  return {
    readHome: (url, html, country, contactPages) => read(url, { kind: 'home', url, html, country, contactPages }),
    readPage: (url, html, country) => read(url, { kind: 'page', html, country }),
    summarise: (url, status, html) => read(url, { kind: 'summary', url, status, html }),
  };
}

import type { Knex } from 'knex';
import { TOPICS } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import type { ScraperRuntime } from '../runtime.ts';
import { recordSearch, requestCancel } from '../search/jobStore.ts';

/** Runs `then` once the outermost transaction has committed. */
function afterCommit(trx: Knex.Transaction, then: () => void): void {
  let outermost = trx;
  while (outermost.parentTransaction) outermost = outermost.parentTransaction;
  outermost.executionPromise.then(then, () => undefined);
}

/**
 * Takes search requests and cancellations off the bus (one consumer group for all replicas):
 * it only records them in the shared database, and the workers of every replica claim from there.
 */
export function startSearchConsumer(rt: ScraperRuntime): Promise<Subscription> {
  const { ctx } = rt;
  return ctx.consume('scraper.searches', [TOPICS.leadsSearch], {
    'search.requested': async (data, _envelope, trx) => {
      await recordSearch(trx, data);
      afterCommit(trx, rt.worker.wake);
    },
    'search.cancelled': async (data, _envelope, trx) => {
      await requestCancel(trx, data.search_id);
    },
  });
}

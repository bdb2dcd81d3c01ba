import type { Logger } from 'pino';
import { DEFAULT_PROXY_QUOTA } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { WorkLoop } from '@leadforge/kit/work';
import type { ProxyQuota } from './proxyQuota.ts';

export interface QuotaSnapshot {
  remaining: number;
  limit: number;
}

export async function loadQuotaSnapshot(db: Db): Promise<QuotaSnapshot | undefined> {
  const row = await db('scraper_quota_snapshot').where({ id: 1 }).first();
  if (!row) return undefined;
  const remaining = Number(row.remaining_requests);
  // Snapshots saved before the limit was kept have none: the default, or what is left if more.
  return { remaining, limit: row.limit_requests === null ? Math.max(remaining, DEFAULT_PROXY_QUOTA) : Number(row.limit_requests) };
}

/**
 * Saves the in-process quota's values at most once a second (and on demand), so a restart of a
 * local install keeps the quota an admin set and what searches used of it. On the kit's WorkLoop:
 * a save that fails is tried again (jittered backoff) until one succeeds.
 */
export function quotaSnapshotWriter(db: Db, log: Logger, quota: ProxyQuota, everyMs = 1_000) {
  let unsaved = false;
  let stopped = false;
  let saving: Promise<void> = Promise.resolve();
  const save = async () => {
    if (!unsaved) return;
    unsaved = false;
    try {
      const [remaining, limit] = await Promise.all([quota.remaining(), quota.limit()]);
      await db('scraper_quota_snapshot').insert({ id: 1, remaining_requests: remaining, limit_requests: limit, updated_at: db.fn.now() })
        .onConflict('id').merge(['remaining_requests', 'limit_requests', 'updated_at']);
    } catch (error) {
      unsaved = true;
      throw error;
    }
  };
  // One save at a time, so an older snapshot never overwrites a newer one.
  const saveInTurn = (): Promise<void> => {
    saving = saving.catch(() => undefined).then(save);
    return saving;
  };
  const loop = new WorkLoop({
    name: 'proxy quota snapshot',
    logger: log,
    step: saveInTurn,
    pollMs: everyMs,
    retry: { baseMs: everyMs, maxMs: Math.max(everyMs, 30_000) },
  });
  return {
    changed(): void {
      unsaved = true;
      if (!stopped) loop.start();
    },
    flush: saveInTurn,
    /** Ends the loop and saves what is still unsaved. */
    async stop(): Promise<void> {
      stopped = true;
      await loop.stop();
      await saveInTurn();
    },
  };
}

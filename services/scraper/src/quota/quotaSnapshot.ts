import type { Logger } from 'pino';
import { DEFAULT_PROXY_QUOTA } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit';
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
 * local install keeps the quota an admin set and what searches used of it.
 */
export function quotaSnapshotWriter(db: Db, log: Logger, quota: ProxyQuota, everyMs = 1_000) {
  let unsaved = false;
  let timer: NodeJS.Timeout | undefined;
  const save = async () => {
    timer = undefined;
    if (!unsaved) return;
    unsaved = false;
    const [remaining, limit] = await Promise.all([quota.remaining(), quota.limit()]);
    await db('scraper_quota_snapshot').insert({ id: 1, remaining_requests: remaining, limit_requests: limit, updated_at: db.fn.now() })
      .onConflict('id').merge(['remaining_requests', 'limit_requests', 'updated_at']);
  };
  const saveLogged = () => save().catch((err) => log.warn({ err }, 'could not save the proxy quota'));
  return {
    changed(): void {
      unsaved = true;
      timer ??= setTimeout(saveLogged, everyMs);
    },
    async flush(): Promise<void> {
      clearTimeout(timer);
      await save();
    },
  };
}

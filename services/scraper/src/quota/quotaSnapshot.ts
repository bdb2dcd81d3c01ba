import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit';

export async function loadQuotaSnapshot(db: Db): Promise<number | undefined> {
  const row = await db('scraper_quota_snapshot').where({ id: 1 }).first();
  return row ? Number(row.remaining_requests) : undefined;
}

/**
 * Saves the in-process quota's value at most once a second (and on demand), so a restart of a
 * local install keeps the quota an admin set and what searches used of it.
 */
export function quotaSnapshotWriter(db: Db, log: Logger, everyMs = 1_000) {
  let latest: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const save = async () => {
    timer = undefined;
    if (latest === undefined) return;
    const value = latest;
    latest = undefined;
    await db('scraper_quota_snapshot').insert({ id: 1, remaining_requests: value, updated_at: db.fn.now() })
      .onConflict('id').merge(['remaining_requests', 'updated_at']);
  };
  const saveLogged = () => save().catch((err) => log.warn({ err }, 'could not save the proxy quota'));
  return {
    changed(remaining: number): void {
      latest = remaining;
      timer ??= setTimeout(saveLogged, everyMs);
    },
    async flush(): Promise<void> {
      clearTimeout(timer);
      await save();
    },
  };
}

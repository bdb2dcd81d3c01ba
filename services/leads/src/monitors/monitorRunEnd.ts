import { emitEvent } from '@leadforge/kit/events';
import { allLeads } from '../domain/leadRows.ts';
import { publicStatus, type SearchRow, type Trx } from '../domain/searchRecord.ts';
import { queueMonitorRunDeliveries } from '../webhooks/webhookDeliveries.ts';
import type { MonitorRow } from './monitorRecord.ts';

/**
 * Closes a monitor's run in the transaction that closes its search's books (so once): the run is
 * finished, `monitor.run.completed` goes out (auth emails the user from it) and the user's webhooks
 * listening to it get the new businesses. Returns how many deliveries were queued.
 */
export async function endMonitorRun(trx: Trx, search: SearchRow, retryForMs: number): Promise<number> {
  if (!search.monitor_id) return 0;
  await trx('monitor_runs').where({ search_id: search.id }).whereNull('finished_at').update({ finished_at: trx.fn.now() });
  // The monitor may have been deleted meanwhile: its run's search stays in the history, told to nobody.
  const monitor: MonitorRow | undefined = await trx('monitors').where({ id: search.monitor_id }).first();
  if (!monitor) return 0;
  const newLeads = search.status === 'completed' ? search.leads_count - search.owned_count : 0;
  await emitEvent(trx, 'monitor.run.completed', monitor.id, {
    monitor_id: monitor.id,
    user_id: search.user_id,
    search_id: search.id,
    industry: search.industry,
    location: search.location,
    status: publicStatus(search.status),
    new_leads: newLeads,
    credits_used: search.credits_used,
    notify_email: monitor.notify_email,
    timestamp: new Date().toISOString(),
  });
  if (search.status !== 'completed') return 0;
  return queueMonitorRunDeliveries(trx, search, await allLeads(trx, search.id), retryForMs);
}

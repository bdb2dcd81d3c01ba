import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { badRequest, handle, notFound, paymentRequired, principalOf } from '@leadforge/kit/http';
import { MONITOR_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { lockLiveAccount } from '../domain/erasedAccounts.ts';
import {
  MAX_MONITORS_PER_USER, attemptAtFor, createMonitor, findOwnMonitor, nextDueAfter, periodOf, runsOf, toMonitor, toRun, type MonitorRow,
} from '../monitors/monitorRecord.ts';
import { startMonitorRun } from '../monitors/monitorRunStart.ts';
import { searchStartLimit } from '../domain/startRateLimit.ts';

const NOT_FOUND = 'Monitor not found';
/** Runs shown with a monitor, and in its runs list. */
const RECENT_RUNS = 10;
const RUNS_LISTED = 100;

/** A user's monitors: create, list, read with recent runs, change (pause, resume, size, cadence, email), delete, run now. */
export async function monitorRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  const { spreadMs } = rt.config.monitors;
  const ownMonitor = async (request: FastifyRequest, id: string) => {
    const monitor = await findOwnMonitor(db, principalOf(request).id, id);
    if (!monitor) throw notFound(NOT_FOUND);
    return monitor;
  };
  const withRuns = async (monitor: MonitorRow, count: number) => (await runsOf(db, [monitor.id], count)).get(monitor.id)!;

  handle(app, MONITOR_ROUTES.create, async (request, reply) => {
    const userId = principalOf(request).id;
    const row = await db.transaction(async (trx) => {
      // Under the account's lock: the cap holds under concurrent requests, and none is stored once the account is erased.
      await lockLiveAccount(trx, userId);
      const [{ total }] = await trx('monitors').where({ user_id: userId }).count({ total: '*' });
      if (Number(total) >= MAX_MONITORS_PER_USER) throw badRequest(`You can have at most ${MAX_MONITORS_PER_USER} monitors. Delete one to add another.`, 'too_many_monitors');
      return createMonitor(trx, userId, request.body, spreadMs);
    });
    return reply.status(201).header('location', `/api/monitors/${row.id}`).send(toMonitor(row, []));
  });

  handle(app, MONITOR_ROUTES.list, async (request) => {
    const rows: MonitorRow[] = await db('monitors').where({ user_id: principalOf(request).id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    const runs = await runsOf(db, rows.map((row) => row.id), 1);
    return { monitors: rows.map((row) => toMonitor(row, runs.get(row.id)!)) };
  });

  handle(app, MONITOR_ROUTES.get, async (request) => {
    const monitor = await ownMonitor(request, request.params.id);
    const runs = await withRuns(monitor, RECENT_RUNS);
    return { ...toMonitor(monitor, runs), runs: runs.map(toRun) };
  });

  handle(app, MONITOR_ROUTES.update, async (request) => {
    const changes = request.body;
    const { id } = await ownMonitor(request, request.params.id);
    const updated = await db.transaction(async (trx) => {
      // The scheduler decides a run under this lock too: a pause lands before a run starts, or after.
      const monitor: MonitorRow | undefined = await trx('monitors').where({ id }).forUpdate().first();
      if (!monitor) throw notFound(NOT_FOUND);
      const now = new Date();
      const frequency = changes.frequency ?? monitor.frequency;
      const resumed = changes.status === 'active' && monitor.status === 'paused';
      // A new cadence counts from now; a resumed monitor keeps its cadence, its next due time the first one ahead.
      const nextRunAt = changes.frequency && changes.frequency !== monitor.frequency ? new Date(now.getTime() + periodOf(frequency))
        : resumed ? nextDueAfter(new Date(monitor.next_run_at), frequency, now) : undefined;
      const [row]: MonitorRow[] = await trx('monitors').where({ id }).update({
        ...changes,
        ...(nextRunAt ? { next_run_at: nextRunAt, next_attempt_at: attemptAtFor(nextRunAt, spreadMs), attempts: 0 } : {}),
      }).returning('*');
      return row;
    });
    return toMonitor(updated, await withRuns(updated, 1));
  });

  handle(app, MONITOR_ROUTES.delete, async (request, reply) => {
    const monitor = await ownMonitor(request, request.params.id);
    // Its runs' searches stay in the history (they were delivered and paid for).
    await db('monitors').where({ id: monitor.id }).delete();
    return reply.status(204).send(null);
  });

  handle(app, MONITOR_ROUTES.run, {
    // Run now starts a search: it counts toward the same per-user start limit as POST /api/lead-searches.
    preHandler: searchStartLimit(rt.ctx.counters, rt.config.startsPerMinute),
  }, async (request, reply) => {
    const monitor = await ownMonitor(request, request.params.id);
    const started = await startMonitorRun(rt.monitorRuns, monitor, new Date(), 'manual');
    if (started.kind === 'insufficient_credits') {
      throw paymentRequired('You have no credits for this run, so it did not start and nothing was charged. Buy credits, then run it again.');
    }
    if (started.kind !== 'started') throw notFound(NOT_FOUND);
    return reply.status(202).header('location', `/api/lead-searches/${started.searchId}`).send({ search_id: started.searchId });
  });

  handle(app, MONITOR_ROUTES.runs, async (request) => {
    const monitor = await ownMonitor(request, request.params.id);
    return { runs: (await withRuns(monitor, RUNS_LISTED)).map(toRun) };
  });
}

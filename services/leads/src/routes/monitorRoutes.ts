import { Type } from 'typebox';
import type { App } from '@leadforge/kit/service';
import { badRequest, notFound, paymentRequired, principalOf } from '@leadforge/kit/http';
import {
  CreateMonitorRequest, ErrorBody, Monitor, MonitorDetail, MonitorId, MonitorList, MonitorRunList, MonitorRunStarted, UpdateMonitorRequest,
} from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { lockLiveAccount } from '../domain/erasedAccounts.ts';
import {
  MAX_MONITORS_PER_USER, attemptAtFor, createMonitor, findOwnMonitor, nextDueAfter, periodOf, runsOf, toMonitor, toRun, type MonitorRow,
} from '../monitors/monitorRecord.ts';
import { startMonitorRun } from '../monitors/monitorRunStart.ts';
import { searchStartLimit } from '../domain/startRateLimit.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 402: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };
const NOT_FOUND = 'Monitor not found';
/** Runs shown with a monitor, and in its runs list. */
const RECENT_RUNS = 10;
const RUNS_LISTED = 100;

/** A user's monitors: create, list, read with recent runs, change (pause, resume, size, cadence, email), delete, run now. */
export async function monitorRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  const { spreadMs } = rt.config.monitors;
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;
  const ownMonitor = async (request: Parameters<typeof principalOf>[0] & { params: unknown }) => {
    const monitor = await findOwnMonitor(db, principalOf(request).id, idOf(request));
    if (!monitor) throw notFound(NOT_FOUND);
    return monitor;
  };
  const withRuns = async (monitor: MonitorRow, count: number) => (await runsOf(db, [monitor.id], count)).get(monitor.id)!;

  app.post('/api/monitors', {
    schema: { body: CreateMonitorRequest, response: { 201: Monitor, ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const userId = principalOf(request).id;
    const row = await db.transaction(async (trx) => {
      // Under the account's lock: the cap holds under concurrent requests, and none is stored once the account is erased.
      await lockLiveAccount(trx, userId);
      const [{ total }] = await trx('monitors').where({ user_id: userId }).count({ total: '*' });
      if (Number(total) >= MAX_MONITORS_PER_USER) throw badRequest(`You can have at most ${MAX_MONITORS_PER_USER} monitors. Delete one to add another.`, 'too_many_monitors');
      return createMonitor(trx, userId, request.body as CreateMonitorRequest, spreadMs);
    });
    return reply.status(201).header('location', `/api/monitors/${row.id}`).send(toMonitor(row, []));
  });

  app.get('/api/monitors', {
    schema: { response: { 200: MonitorList, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const rows: MonitorRow[] = await db('monitors').where({ user_id: principalOf(request).id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    const runs = await runsOf(db, rows.map((row) => row.id), 1);
    return { monitors: rows.map((row) => toMonitor(row, runs.get(row.id)!)) };
  });

  app.get('/api/monitors/:id', {
    schema: { params: MonitorId, response: { 200: MonitorDetail, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const monitor = await ownMonitor(request);
    const runs = await withRuns(monitor, RECENT_RUNS);
    return { ...toMonitor(monitor, runs), runs: runs.map(toRun) };
  });

  app.patch('/api/monitors/:id', {
    schema: { params: MonitorId, body: UpdateMonitorRequest, response: { 200: Monitor, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const changes = request.body as UpdateMonitorRequest;
    const { id } = await ownMonitor(request);
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

  app.delete('/api/monitors/:id', {
    schema: { params: MonitorId, response: { 204: Type.Null(), ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const monitor = await ownMonitor(request);
    // Its runs' searches stay in the history (they were delivered and paid for).
    await db('monitors').where({ id: monitor.id }).delete();
    return reply.status(204).send();
  });

  app.post('/api/monitors/:id/run', {
    schema: { params: MonitorId, response: { 202: MonitorRunStarted, ...errors } },
    // Run now starts a search: it counts toward the same per-user start limit as POST /api/lead-searches.
    preHandler: [app.requireUser, searchStartLimit(rt.ctx.counters, rt.config.startsPerMinute)],
  }, async (request, reply) => {
    const monitor = await ownMonitor(request);
    const started = await startMonitorRun(rt.monitorRuns, monitor, new Date(), 'manual');
    if (started.kind === 'insufficient_credits') {
      throw paymentRequired('You have no credits for this run, so it did not start and nothing was charged. Buy credits, then run it again.');
    }
    if (started.kind !== 'started') throw notFound(NOT_FOUND);
    return reply.status(202).header('location', `/api/lead-searches/${started.searchId}`).send({ search_id: started.searchId });
  });

  app.get('/api/monitors/:id/runs', {
    schema: { params: MonitorId, response: { 200: MonitorRunList, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const monitor = await ownMonitor(request);
    return { runs: (await withRuns(monitor, RUNS_LISTED)).map(toRun) };
  });
}

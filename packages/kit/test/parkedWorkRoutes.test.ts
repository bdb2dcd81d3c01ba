import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARKED_WORK_PATH } from '@leadforge/contracts';
import { startServiceForTest } from '@leadforge/testing';
import { INTERNAL_TOKEN_HEADER } from '../src/http/internalCalls.ts';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';
import { LeasedQueue, type QueueDeclaration } from '../src/work/leasedQueue.ts';

interface TaskRow { id: number; name: string; attempts: number }

const TASKS: QueueDeclaration = {
  queue: 'tasks',
  table: { table: 'tasks', pending: 'done_at IS NULL AND parked_at IS NULL', parked: 'parked_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error' },
  unpark: { parked_at: null },
};
// Never parks, and declares no way back: a replay of it is refused.
const RECEIPTS: QueueDeclaration = { queue: 'receipts', table: { ...TASKS.table, parked: 'false' } };

describe('every service\'s parked-work routes: a parked job is listed, replayed and then processed', () => {
  let service: RunningService;
  let fixed = false;

  const definition: ServiceDefinition = {
    name: 'contact',
    queues: [TASKS, RECEIPTS],
    async routes() {},
    async start(ctx) {
      await ctx.db.raw(`CREATE TABLE tasks (
        id serial PRIMARY KEY, name text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz, lease_owner text,
        created_at timestamptz NOT NULL DEFAULT now(), done_at timestamptz, parked_at timestamptz, last_error text)`);
      await ctx.db('tasks').insert({ name: 'send the receipt' });
      const queue = new LeasedQueue<TaskRow>({
        ...TASKS, db: ctx.db, logger: pino({ level: 'silent' }), service: 'contact', leaseMs: 60_000, pollMs: 50, retry: { baseMs: 5, maxMs: 20 }, maxAttempts: 2,
        async work() {
          if (!fixed) throw new Error('the mail server refused it');
          return { kind: 'done' };
        },
        done: () => ({ done_at: ctx.db.fn.now() }),
        park: () => ({ parked_at: ctx.db.fn.now() }),
      });
      queue.start();
      return () => queue.stop();
    },
  };

  beforeAll(async () => {
    service = await startServiceForTest(definition, { kind: 'pglite' });
  });
  afterAll(() => service?.stop());

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, token = service.ctx.config.internalToken) => {
    const answer = await fetch(`${service.url}${path}`, {
      method,
      headers: { [INTERNAL_TOKEN_HEADER]: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json() };
  };

  it('answers only callers with the service token', async () => {
    expect(await call('GET', PARKED_WORK_PATH, undefined, 'not-the-token')).toMatchObject({ status: 403, body: { detail: 'Internal route: service token required' } });
    expect((await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'outbox' }, 'not-the-token')).status).toBe(403);
  });

  it('lists the job its queue parked, replays it, and the queue then does it', async () => {
    await expect.poll(async () => (await call('GET', PARKED_WORK_PATH)).body.total, { timeout: 10_000 }).toBe(1);
    const listed = await call('GET', PARKED_WORK_PATH);
    expect(listed.body.items).toEqual([{
      kind: 'queue', name: 'tasks', key: '1', what: 'tasks', error: 'the mail server refused it', attempts: 2, parked_at: expect.any(String), replayable: true,
    }]);

    fixed = true;
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'queue', queue: 'tasks', keys: ['1'] }))
      .toEqual({ status: 200, body: { replayed: 1, kept: [], message: '1 piece of work in contact\'s tasks will run again' } });
    await expect.poll(() => service.ctx.db('tasks').where({ id: 1 }).first('attempts', service.ctx.db.raw('done_at IS NOT NULL AS done')), { timeout: 10_000 })
      .toEqual({ attempts: 1, done: true });
    expect(await call('GET', PARKED_WORK_PATH)).toEqual({ status: 200, body: { items: [], total: 0 } });
  });

  it('refuses a replay it cannot do with a 4xx and its reason', async () => {
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'queue' })).toMatchObject({ status: 400, body: { detail: 'Name the queue to replay (queue)' } });
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'queue', queue: 'nope' }))
      .toMatchObject({ status: 404, body: { detail: 'The contact service has no queue named nope (it has tasks, receipts)' } });
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'queue', queue: 'receipts' })).toMatchObject({ status: 409, body: { code: 'not_replayable' } });
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'everything' })).toMatchObject({ status: 400, body: { detail: expect.stringContaining('kind must be queue, outbox or dead_letters') } });
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'outbox', keys: [] })).toMatchObject({ status: 400, body: { detail: expect.stringContaining('keys must name at least one') } });
    expect(await call('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'dead_letters' })).toEqual({ status: 200, body: { replayed: 0, kept: [], message: 'Nothing parked in contact\'s dead letters matched' } });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { register } from 'prom-client';
import { LeasedQueue, type LeasedQueueOptions, type WorkOutcome } from '../src/work/leasedQueue.ts';
import { createTestDatabase, type TestDatabase } from '@leadforge/testing';

const logger = pino({ level: 'silent' });

interface TaskRow { id: number; name: string; attempts: number }

describe('LeasedQueue', () => {
  let tdb: TestDatabase;

  beforeAll(async () => {
    tdb = await createTestDatabase('leased_queue');
    await tdb.db.raw(`CREATE TABLE tasks (
      id serial PRIMARY KEY, name text NOT NULL, attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(), created_at timestamptz NOT NULL DEFAULT now(),
      done_at timestamptz, parked_at timestamptz, last_error text)`);
    await tdb.db.raw('CREATE TABLE task_attempts (task_id integer, attempt integer, outcome text)');
  });
  afterAll(() => tdb.close());
  beforeEach(() => tdb.db.raw('TRUNCATE tasks, task_attempts RESTART IDENTITY'));

  const queue = (work: (row: TaskRow) => Promise<WorkOutcome>, overrides: Partial<LeasedQueueOptions<TaskRow>> = {}) => new LeasedQueue<TaskRow>({
    db: tdb.db,
    logger,
    service: 'test',
    queue: 'tasks',
    table: { table: 'tasks', pending: 'done_at IS NULL AND parked_at IS NULL', parked: 'parked_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error' },
    leaseMs: 60_000,
    pollMs: 10,
    retry: { baseMs: 5, maxMs: 20 },
    work,
    done: () => ({ done_at: tdb.db.fn.now() }),
    park: () => ({ parked_at: tdb.db.fn.now() }),
    unpark: { parked_at: null },
    recorded: async (trx, row, outcome) => { await trx('task_attempts').insert({ task_id: row.id, attempt: row.attempts, outcome: outcome.kind }); },
    ...overrides,
  });
  const rows = () => tdb.db('tasks').orderBy('id').select('name', 'attempts', 'last_error', tdb.db.raw('done_at IS NOT NULL AS done'), tdb.db.raw('parked_at IS NOT NULL AS parked'));

  it('retries a failing row with a pause, parks it after maxAttempts, and replays it on request', async () => {
    await tdb.db('tasks').insert([{ name: 'ok' }, { name: 'flaky' }, { name: 'poison' }]);
    let flakyFailures = 2;
    const tasks = queue(async (row) => {
      if (row.name === 'poison') throw new Error('always fails');
      if (row.name === 'flaky' && flakyFailures-- > 0) return { kind: 'retry', error: 'not yet' };
      return { kind: 'done' };
    }, { maxAttempts: 4 });
    tasks.start();
    await expect.poll(async () => (await rows()).filter((r) => r.done || r.parked).length, { timeout: 10_000 }).toBe(3);
    expect(await rows()).toEqual([
      { name: 'ok', attempts: 1, last_error: null, done: true, parked: false },
      { name: 'flaky', attempts: 3, last_error: null, done: true, parked: false },
      { name: 'poison', attempts: 4, last_error: 'always fails', done: false, parked: true },
    ]);
    expect((await tdb.db('task_attempts').where({ task_id: 3 }).orderBy('attempt').pluck('outcome'))).toEqual(['retry', 'retry', 'retry', 'park']);

    const metric = async (name: string) => (await register.getSingleMetric(name)!.get()).values.find((v) => v.labels.queue === 'tasks')?.value;
    expect(await metric('leadforge_work_queue_parked')).toBe(1);
    expect(await metric('leadforge_work_queue_depth')).toBe(0);

    expect(await tasks.replayParked()).toBe(1);
    await expect.poll(async () => (await rows())[2].attempts, { timeout: 10_000 }).toBe(4);
    await expect.poll(async () => (await rows())[2].parked, { timeout: 10_000 }).toBe(true);
    await tasks.stop();
  });

  it('gives each row to one worker at a time across workers sharing the table', async () => {
    await tdb.db('tasks').insert(Array.from({ length: 40 }, (_, i) => ({ name: `t${i}` })));
    const worked: string[] = [];
    const work = async (row: TaskRow): Promise<WorkOutcome> => {
      worked.push(row.name);
      await new Promise((resolve) => setImmediate(resolve));
      return { kind: 'done' };
    };
    const workers = [queue(work, { parallel: 3 }), queue(work, { parallel: 3, queue: 'tasks-2' })];
    workers.forEach((w) => w.start());
    await expect.poll(async () => (await rows()).filter((r) => r.done).length, { timeout: 10_000 }).toBe(40);
    await Promise.all(workers.map((w) => w.stop()));
    expect([...worked].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `t${i}`).sort());
  });

  it('looks for due rows with one query when none is due, and works on `parallel` rows at once when some are', async () => {
    let inProgress = 0;
    let mostAtOnce = 0;
    let release!: () => void;
    const allIn = new Promise<void>((resolve) => { release = resolve; });
    const tasks = queue(async () => {
      mostAtOnce = Math.max(mostAtOnce, ++inProgress);
      if (inProgress === 3) release();
      await allIn;
      inProgress--;
      return { kind: 'done' };
    }, { parallel: 3 });
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    tdb.db.on('query', count);
    try {
      expect(await tasks.drainOnce()).toBe(false);
    } finally {
      tdb.db.off('query', count);
    }
    expect(queries).toHaveLength(1);

    await tdb.db('tasks').insert(Array.from({ length: 6 }, (_, i) => ({ name: `t${i}` })));
    tasks.start();
    await expect.poll(async () => (await rows()).filter((r) => r.done).length, { timeout: 10_000 }).toBe(6);
    await tasks.stop();
    expect(mostAtOnce).toBe(3);
  });

  it('takes a row back from a worker that died mid-attempt once its lease ends', async () => {
    await tdb.db('tasks').insert({ name: 'orphan' });
    // A worker that claimed the row and died: its lease (next_attempt_at) runs out in a moment.
    await tdb.db('tasks').update({ attempts: 1, next_attempt_at: tdb.db.raw(`now() + interval '300 milliseconds'`) });
    const tasks = queue(async () => ({ kind: 'done' }));
    tasks.start();
    await expect.poll(async () => (await rows())[0], { timeout: 10_000 }).toMatchObject({ done: true, attempts: 2 });
    await tasks.stop();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { register } from 'prom-client';
import { LeasedQueue, replayParkedRows, type Lease, type LeasedQueueOptions, type WorkOutcome } from '../src/work/leasedQueue.ts';
import { createTestDatabase, type TestDatabase } from '@leadforge/testing';

const logger = pino({ level: 'silent' });

interface TaskRow { id: number; name: string; attempts: number; lease_owner: string | null }

/** A promise and the function that settles it. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => { open = resolve; });
  return { opened, open };
}

describe('LeasedQueue', () => {
  let tdb: TestDatabase;

  beforeAll(async () => {
    tdb = await createTestDatabase('leased_queue');
    await tdb.db.raw(`CREATE TABLE tasks (
      id serial PRIMARY KEY, name text NOT NULL, attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(), lease_owner text, lease_replica text, created_at timestamptz NOT NULL DEFAULT now(),
      done_at timestamptz, parked_at timestamptz, last_error text)`);
    await tdb.db.raw('CREATE TABLE task_attempts (task_id integer, attempt integer, outcome text)');
  });
  afterAll(() => tdb.close());
  beforeEach(() => tdb.db.raw('TRUNCATE tasks, task_attempts RESTART IDENTITY'));

  const TASKS = {
    queue: 'tasks',
    table: { table: 'tasks', pending: 'done_at IS NULL AND parked_at IS NULL', parked: 'parked_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error', replicaColumn: 'lease_replica' },
    unpark: { parked_at: null },
  };
  const queue = (work: (row: TaskRow, lease: Lease<TaskRow>) => Promise<WorkOutcome>, overrides: Partial<LeasedQueueOptions<TaskRow>> = {}) => new LeasedQueue<TaskRow>({
    ...TASKS,
    db: tdb.db,
    logger,
    service: 'test',
    leaseMs: 60_000,
    pollMs: 10,
    retry: { baseMs: 5, maxMs: 20 },
    work,
    done: () => ({ done_at: tdb.db.fn.now() }),
    park: () => ({ parked_at: tdb.db.fn.now() }),
    recorded: async (trx, row, outcome) => { await trx('task_attempts').insert({ task_id: row.id, attempt: row.attempts, outcome: outcome.kind }); },
    ...overrides,
  });
  const rows = () => tdb.db('tasks').orderBy('id').select('name', 'attempts', 'last_error', tdb.db.raw('done_at IS NOT NULL AS done'), tdb.db.raw('parked_at IS NOT NULL AS parked'));
  const outcomes = (id: number) => tdb.db('task_attempts').where({ task_id: id }).orderBy('attempt').pluck('outcome');

  it('retries a failing row with a pause, parks it after maxAttempts; a replay puts it back and it runs once', async () => {
    await tdb.db('tasks').insert([{ name: 'ok' }, { name: 'flaky' }, { name: 'poison' }]);
    let flakyFailures = 2;
    let poisonFixed = false;
    let poisonRuns = 0;
    const tasks = queue(async (row) => {
      if (row.name === 'poison') {
        poisonRuns++;
        if (!poisonFixed) throw new Error('always fails');
      }
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
    expect(await outcomes(3)).toEqual(['retry', 'retry', 'retry', 'park']);
    expect(poisonRuns).toBe(4);

    const metric = async (name: string) => (await register.getSingleMetric(name)!.get()).values.find((v) => v.labels.queue === 'tasks')?.value;
    expect(await metric('leadforge_work_queue_parked')).toBe(1);
    expect(await metric('leadforge_work_queue_depth')).toBe(0);

    // Fixed: the replay makes it due again, with its attempts counted afresh, and the running queue is woken.
    poisonFixed = true;
    expect(await replayParkedRows(tdb.db, TASKS)).toBe(1);
    await expect.poll(async () => (await rows())[2], { timeout: 10_000 }).toMatchObject({ attempts: 1, done: true, parked: false, last_error: null });
    expect(poisonRuns).toBe(5);
    expect((await outcomes(3)).sort()).toEqual(['done', 'park', 'retry', 'retry', 'retry']);
    expect(await replayParkedRows(tdb.db, TASKS)).toBe(0);
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
    const allIn = gate();
    const tasks = queue(async () => {
      mostAtOnce = Math.max(mostAtOnce, ++inProgress);
      if (inProgress === 3) allIn.open();
      await allIn.opened;
      inProgress--;
      return { kind: 'done' };
    }, { parallel: 3 });
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    tdb.db.on('query', count);
    try {
      expect(await tasks.drainOnce()).toBe(0);
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
    await tdb.db('tasks').update({ attempts: 1, lease_owner: 'dead-worker:1', next_attempt_at: tdb.db.raw(`now() + interval '300 milliseconds'`) });
    const tasks = queue(async () => ({ kind: 'done' }));
    tasks.start();
    await expect.poll(async () => (await rows())[0], { timeout: 10_000 }).toMatchObject({ done: true, attempts: 2 });
    await tasks.stop();
  });

  it('refuses the outcome and the commits of a worker whose lease another worker took over (the owner fence)', async () => {
    await tdb.db('tasks').insert({ name: 'contested' });
    const takenOver = gate();
    const staleFinished = gate();
    let staleLease: Lease<TaskRow> | undefined;
    // The stale worker stalls past its lease (no heartbeat), then tries to park the row and to commit.
    const stale = queue(async (_row, lease) => {
      staleLease = lease;
      await takenOver.opened;
      return { kind: 'park', error: 'a stale verdict' };
    }, { leaseMs: 200, owner: 'stale' });
    const fresh = queue(async () => ({ kind: 'done' }), { owner: 'fresh', queue: 'tasks-fresh' });
    const origin = stale.drainOnce().then(() => staleFinished.open());
    await expect.poll(() => staleLease?.token).toBe('stale:1');
    await expect.poll(async () => fresh.drainOnce(), { timeout: 10_000 }).toBe(1);
    expect(await rows()).toEqual([{ name: 'contested', attempts: 2, last_error: null, done: true, parked: false }]);

    // What the stale worker writes through its lease is refused: it holds nothing any more.
    expect(await tdb.db.transaction((trx) => staleLease!.hold(trx))).toBeUndefined();
    expect(await tdb.db.transaction((trx) => staleLease!.settle(trx, { kind: 'done' }, { name: 'overwritten' }))).toBe(false);
    takenOver.open();
    await staleFinished.opened;
    await origin;
    expect(await rows()).toEqual([{ name: 'contested', attempts: 2, last_error: null, done: true, parked: false }]);
    expect(await outcomes(1)).toEqual(['done']);
  });

  it('keeps a long attempt\'s lease with its heartbeat, and aborts its signal when told to stop', async () => {
    await tdb.db('tasks').insert([{ name: 'long' }, { name: 'cancelled' }]);
    const reasons = new Map<string, unknown>();
    const finish = gate();
    const long = queue(async (row, lease) => {
      if (row.name === 'long') await finish.opened;
      else await new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
      reasons.set(row.name, lease.signal.reason);
      return { kind: 'done' };
    }, { leaseMs: 300, heartbeatMs: 50, parallel: 2, interrupt: (row) => (row.name === 'stop it' ? 'cancelled' : undefined) });
    long.start();
    await expect.poll(() => long.leasedKeys.length).toBe(2);
    const [{ lease_end: firstLeaseEnd }] = (await tdb.db.raw(`SELECT max(next_attempt_at) AS lease_end FROM tasks`)).rows;
    // Well past the first lease: another worker still finds nothing to claim, the heartbeat kept it.
    await expect.poll(async () => (await tdb.db.raw(`SELECT now() > ?::timestamptz + interval '300 milliseconds' AS past`, [firstLeaseEnd])).rows[0].past, { timeout: 10_000 }).toBe(true);
    const other = queue(async () => ({ kind: 'done' }), { queue: 'tasks-other', owner: 'other' });
    expect(await other.drainOnce()).toBe(0);

    await tdb.db('tasks').where({ name: 'cancelled' }).update({ name: 'stop it' });
    // The work sees the row as it claimed it.
    await expect.poll(() => reasons.get('cancelled'), { timeout: 10_000 }).toBe('cancelled');
    finish.open();
    await expect.poll(async () => (await rows()).every((r) => r.done), { timeout: 10_000 }).toBe(true);
    expect(reasons.get('long')).toBeUndefined();
    expect((await rows()).map((r) => r.attempts)).toEqual([1, 1]);
    await long.stop();
  });

  it('tells its attempts to stop at shutdown and hands back the rows they release', async () => {
    await tdb.db('tasks').insert({ name: 'interrupted' });
    const tasks = queue(async (_row, lease) => {
      await new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
      return lease.signal.reason === 'shutdown' ? { kind: 'release' } : { kind: 'done' };
    });
    tasks.start();
    await expect.poll(() => tasks.leasedKeys.length).toBe(1);
    await tasks.stop();
    const [row] = await tdb.db('tasks').select('attempts', 'lease_owner', tdb.db.raw('next_attempt_at <= now() AS due'), tdb.db.raw('done_at IS NOT NULL AS done'));
    expect(row).toEqual({ attempts: 1, lease_owner: null, due: true, done: false });
  });

  it('gives a restarted replica the rows its dead process held at once; other replicas wait for the leases', async () => {
    await tdb.db('tasks').insert([{ name: 'r1' }, { name: 'r2' }]);
    const claimer = (owner: string, replica: string) => queue(async () => ({ kind: 'done' }), { owner, replica, leaseMs: 600_000 });
    const dead = claimer('host-a/8080:111', 'host-a/8080');
    expect((await dead.claim())?.row.name).toBe('r1');
    expect((await dead.claim())?.row.name).toBe('r2');
    expect(await claimer('host-b/8080:222', 'host-b/8080').claim()).toBeUndefined();

    const restarted = claimer('host-a/8080:333', 'host-a/8080');
    const resumed = [await restarted.claim(), await restarted.claim()];
    expect(resumed.map((lease) => [lease?.row.name, lease?.token, lease?.row.attempts])).toEqual([['r1', 'host-a/8080:333:1', 2], ['r2', 'host-a/8080:333:2', 2]]);
    // Its own rows are not claimed twice.
    expect(await restarted.claim()).toBeUndefined();
  });
});

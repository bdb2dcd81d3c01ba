import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@leadforge/testing';
import { listParkedWork, replayParkedWork } from '../src/events/parkedWork.ts';
import type { QueueDeclaration } from '../src/work/leasedQueue.ts';

const ENVELOPE = (id: string) => ({ id, type: 'credits.changed', key: 'user-1', version: 1, occurred_at: new Date().toISOString(), data: {} });

describe('parked work: one view and one replay over queues, outbox and dead letters', () => {
  let tdb: TestDatabase;
  const TASKS: QueueDeclaration = {
    queue: 'tasks',
    table: { table: 'tasks', pending: 'parked_at IS NULL AND done_at IS NULL', parked: 'parked_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error' },
    unpark: { parked_at: null },
  };
  const FINAL: QueueDeclaration = { ...TASKS, queue: 'final', unpark: undefined };
  const NEVER: QueueDeclaration = { queue: 'never', table: { ...TASKS.table, parked: 'false' } };

  beforeAll(async () => {
    tdb = await createTestDatabase('parked_work');
    await tdb.db.raw(`CREATE TABLE tasks (
      id serial PRIMARY KEY, attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz, lease_owner text,
      created_at timestamptz NOT NULL DEFAULT now(), done_at timestamptz, parked_at timestamptz, last_error text)`);
    await tdb.db('tasks').insert([{ attempts: 5, parked_at: tdb.db.fn.now(), next_attempt_at: tdb.db.fn.now(), last_error: 'always fails' }, { attempts: 1 }]);
    const outboxId = '00000000-0000-4000-8000-000000000001';
    await tdb.db('kit_outbox').insert({ event_id: outboxId, topic: 'leadforge.credits', key: 'user-1', envelope: JSON.stringify(ENVELOPE(outboxId)), parked_at: tdb.db.fn.now(), last_error: 'too large' });
    const letterId = '00000000-0000-4000-8000-000000000002';
    await tdb.db('kit_dead_letters').insert({ consumer: 'leads-credits', topic: 'leadforge.credits', event_id: letterId, envelope: JSON.stringify(ENVELOPE(letterId)), error: 'handler failed', attempts: 3 });
  });
  afterAll(() => tdb.close());

  it('lists every parked piece of work with where it is, what it is and whether it can be replayed', async () => {
    const items = await listParkedWork(tdb.db, [TASKS, NEVER]);
    expect(items.map(({ parkedAt: _parkedAt, ...item }) => item)).toEqual([
      { source: { kind: 'queue', queue: 'tasks' }, key: '1', what: 'tasks', error: 'always fails', attempts: 5, replayable: true },
      { source: { kind: 'outbox' }, key: expect.any(String), what: 'credits.changed', error: 'too large', attempts: null, replayable: true },
      { source: { kind: 'dead_letters' }, key: '00000000-0000-4000-8000-000000000002', what: 'credits.changed (leads-credits)', error: 'handler failed', attempts: 3, replayable: true },
    ]);
    expect(items.every((item) => item.parkedAt instanceof Date)).toBe(true);
    expect((await listParkedWork(tdb.db, [FINAL]))[0]).toMatchObject({ source: { kind: 'queue', queue: 'final' }, replayable: false });
  });

  it('replays each source by one command, picks nothing for an empty selection, and refuses final or unknown queues', async () => {
    expect(await replayParkedWork(tdb.db, 'test', [TASKS], { kind: 'queue', queue: 'tasks' }, [])).toEqual({ source: { kind: 'queue', queue: 'tasks' }, replayed: 0, kept: [] });
    await expect(replayParkedWork(tdb.db, 'test', [FINAL], { kind: 'queue', queue: 'final' })).rejects.toThrow('cannot be replayed');
    await expect(replayParkedWork(tdb.db, 'test', [TASKS], { kind: 'queue', queue: 'missing' })).rejects.toThrow('no queue named missing');

    expect((await replayParkedWork(tdb.db, 'test', [TASKS], { kind: 'queue', queue: 'tasks' }, ['1'])).replayed).toBe(1);
    expect(await tdb.db('tasks').where({ id: 1 }).first('attempts', 'parked_at')).toEqual({ attempts: 0, parked_at: null });
    expect((await replayParkedWork(tdb.db, 'test', [TASKS], { kind: 'outbox' })).replayed).toBe(1);
    expect((await replayParkedWork(tdb.db, 'test', [TASKS], { kind: 'dead_letters' })).replayed).toBe(1);
    expect(await listParkedWork(tdb.db, [TASKS])).toEqual([]);
    // The dead letter went back out through the outbox.
    expect(await tdb.db('kit_outbox').where({ event_id: '00000000-0000-4000-8000-000000000002' }).first('published_at')).toEqual({ published_at: null });
  });
});

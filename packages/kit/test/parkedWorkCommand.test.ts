import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@leadforge/contracts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrations.ts';
import { runWorkReplayCommand } from '../src/events/parkedWorkCommand.ts';
import type { QueueDeclaration } from '../src/work/leasedQueue.ts';

const TASKS: QueueDeclaration = {
  queue: 'tasks',
  table: { table: 'tasks', pending: 'done_at IS NULL AND parked_at IS NULL', parked: 'parked_at IS NOT NULL', order: 'id', lastErrorColumn: 'last_error' },
  unpark: { parked_at: null },
};
const RECEIPTS: QueueDeclaration = { queue: 'receipts', table: { ...TASKS.table, table: 'receipts' } };

describe('npm run work:replay', () => {
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: '', CONTACT_DATABASE_URL: '', BILLING_DATABASE_URL: '' });
  const eventId = uuidv7();
  const envelope = { id: eventId, type: 'contact.submitted', version: 1, occurred_at: new Date().toISOString(), key: 's1', data: { submission_id: 's1' } };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-replay-'));
    const db = openDatabase({ service: 'contact', dataDir });
    await migrate(db);
    await db('kit_dead_letters').insert([
      { consumer: 'inbox', topic: TOPICS.contactSubmission, event_id: eventId, envelope: JSON.stringify(envelope), error: 'Error: the mail server was down\n    at ...', attempts: 40 },
      { consumer: 'inbox', topic: TOPICS.contactSubmission, event_id: uuidv7(), envelope: JSON.stringify({ undecodable: 'garbage' }), error: 'not JSON', attempts: 0 },
    ]);
    for (const table of ['tasks', 'receipts']) {
      await db.raw(`CREATE TABLE ${table} (id serial PRIMARY KEY, attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz, lease_owner text,
        created_at timestamptz NOT NULL DEFAULT now(), done_at timestamptz, parked_at timestamptz, last_error text)`);
      await db(table).insert({ attempts: 3, parked_at: db.fn.now(), next_attempt_at: db.fn.now(), last_error: `${table} failed` });
    }
    await db.destroy();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runWorkReplayCommand(args, env(), (line) => lines.push(line), { contact: [TASKS, RECEIPTS] });
    return { code, output: lines.join('\n') };
  };

  it('answers bad arguments with its usage', async () => {
    expect(await run('--service', 'nope')).toMatchObject({ code: 2, output: expect.stringContaining('Usage: npm run work:replay') });
    expect((await run('--bogus')).code).toBe(2);
    expect(await run('--kind', 'everything')).toMatchObject({ code: 2, output: expect.stringContaining('--kind must be one of queue, outbox, dead_letters') });
    expect(await run('--service', 'contact', '1')).toMatchObject({ code: 2, output: expect.stringContaining('Keys need --kind') });
    expect((await run('--kind', 'outbox', '--queue', 'tasks')).code).toBe(2);
  });

  it('says so when the service has no database there yet', async () => {
    expect(await run('--service', 'billing', '--list')).toMatchObject({ code: 1, output: expect.stringContaining('The billing database') });
  });

  it('lists every kind of parked work, then replays a queue\'s job, refusing a final queue', async () => {
    const listed = await run('--service', 'contact', '--list');
    expect(listed.code).toBe(0);
    expect(listed.output).toMatch(/^queue {2}tasks {2}1 {2}tasks {2}attempts=3 {2}parked \S+ {2}tasks failed$/m);
    expect(listed.output).toContain('(final: not replayable)  receipts failed');
    expect(listed.output).toContain(`dead_letters  dead letters  ${eventId}  contact.submitted (inbox)  attempts=40`);
    expect(listed.output).toContain('Error: the mail server was down');
    expect(listed.output).not.toContain('    at ...');
    expect(listed.output).toContain('4 piece(s) of parked work in contact');

    expect(await run('--service', 'contact', '--queue', 'receipts')).toMatchObject({ code: 0, output: expect.stringContaining('keeps its parked jobs for good') });
    expect(await run('--service', 'contact', '--queue', 'nope')).toMatchObject({ output: expect.stringContaining('contact has no queue named nope (it has tasks, receipts)') });
    expect(await run('--service', 'contact', '--kind', 'queue', '1')).toMatchObject({ code: 0, output: expect.stringContaining('contact tasks: 1 replayed') });
    const db = openDatabase({ service: 'contact', dataDir });
    try {
      expect(await db('tasks').first('attempts', 'parked_at')).toEqual({ attempts: 0, parked_at: null });
      expect(await db('receipts').first('attempts')).toEqual({ attempts: 3 });
    } finally {
      await db.destroy();
    }
  });

  it('puts a consumer group\'s dead letters back into the outbox, keeping those without an envelope', async () => {
    const replayed = await run('--service', 'contact', '--group', 'inbox');
    expect(replayed.code).toBe(0);
    expect(replayed.output).toContain('contact dead letters: 1 replayed; 1 hold no event envelope and stay parked');

    const db = openDatabase({ service: 'contact', dataDir });
    try {
      expect(await db('kit_outbox').select('event_id', 'topic', 'key', 'envelope', 'published_at')).toEqual([
        { event_id: eventId, topic: TOPICS.contactSubmission, key: 's1', envelope, published_at: null },
      ]);
      expect(await db('kit_dead_letters').pluck('error')).toEqual(['not JSON']);
    } finally {
      await db.destroy();
    }
  });
});

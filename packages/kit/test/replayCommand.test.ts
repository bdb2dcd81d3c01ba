import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@leadforge/contracts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrations.ts';
import { runReplayCommand } from '../src/events/consumer/replayCommand.ts';

describe('npm run events:replay', () => {
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: '', CONTACT_DATABASE_URL: '' });
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
    await db.destroy();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runReplayCommand(args, env(), (line) => lines.push(line));
    return { code, output: lines.join('\n') };
  };

  it('answers bad arguments with its usage', async () => {
    expect(await run('--service', 'nope')).toMatchObject({ code: 2, output: expect.stringContaining('Usage: npm run events:replay') });
    expect((await run('--bogus')).code).toBe(2);
  });

  it('says so when the service has no database there yet', async () => {
    expect(await run('--service', 'billing', '--list')).toMatchObject({ code: 1, output: expect.stringContaining('The billing database') });
  });

  it('lists the parked events, then puts the replayable ones into the outbox', async () => {
    const listed = await run('--service', 'contact', '--list');
    expect(listed.code).toBe(0);
    expect(listed.output).toContain(`${eventId}  inbox  contact.submitted  attempts=40`);
    expect(listed.output).toContain('Error: the mail server was down');
    expect(listed.output).toContain('2 parked event(s) in contact');

    const replayed = await run('--service', 'contact', '--group', 'inbox');
    expect(replayed.code).toBe(0);
    expect(replayed.output).toContain('1 event(s) put back into the contact outbox');
    expect(replayed.output).toContain('1 dead letter(s) hold no event envelope and stay parked');

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

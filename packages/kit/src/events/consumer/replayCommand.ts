import { parseArgs } from 'node:util';
import { SERVICES, type ServiceName } from '@leadforge/contracts';
import { loadKitConfig } from '../../config/kitConfig.ts';
import { openDatabase } from '../../db/database.ts';
import { listDeadLetters, replayDeadLetters } from './deadLetters.ts';

export const REPLAY_USAGE = `Usage: npm run events:replay -- --service <${SERVICES.join('|')}> [--group <consumer group>] [--event <event id>]... [--list]
  Lists the events the service's consumers parked (--list), or puts them back on their topics
  through the service's outbox. Reads the service's database from <SERVICE>_DATABASE_URL,
  DATABASE_URL or DATA_DIR, like the service; with the embedded database, stop the product first.`;

/** `npm run events:replay`; returns the exit code. */
export async function runReplayCommand(args: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { service: { type: 'string' }, group: { type: 'string' }, event: { type: 'string', multiple: true }, list: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (error) {
    out(`${(error as Error).message}\n${REPLAY_USAGE}`);
    return 2;
  }
  const service = parsed.service as ServiceName | undefined;
  if (!service || !SERVICES.includes(service)) {
    out(REPLAY_USAGE);
    return 2;
  }
  const config = loadKitConfig(service, env);
  const db = openDatabase({ service, url: config.databaseUrl, dataDir: config.dataDir === ':memory:' ? undefined : config.dataDir });
  const filter = { group: parsed.group, eventIds: parsed.event };
  try {
    if (!(await db.schema.hasTable('kit_dead_letters'))) {
      out(`The ${service} database (${config.databaseUrl ? 'from the database URL' : `under ${config.dataDir}`}) has no dead letters table: has the service run against it?`);
      return 1;
    }
    if (parsed.list) {
      const parked = await listDeadLetters(db, filter);
      for (const d of parked) {
        out(`${d.eventId}  ${d.consumer}  ${d.type}  attempts=${d.attempts}  parked ${new Date(d.parkedAt).toISOString()}  ${d.error.split('\n')[0]}`);
      }
      out(`${parked.length} parked event(s) in ${service}`);
      return 0;
    }
    const { replayed, kept } = await replayDeadLetters(db, filter);
    out(`${replayed.length} event(s) put back into the ${service} outbox; its relay publishes them again.`);
    if (kept.length) out(`${kept.length} dead letter(s) hold no event envelope and stay parked: ${kept.join(', ')}`);
    return 0;
  } finally {
    await db.destroy();
  }
}

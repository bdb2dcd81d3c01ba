import { parseArgs } from 'node:util';
import { PARKED_KINDS, SERVICES, type ParkedKind, type ServiceName } from '@leadforge/contracts';
import { loadKitConfig } from '../config/kitConfig.ts';
import { openDatabase, type Db } from '../db/database.ts';
import type { QueueDeclaration } from '../work/leasedQueue.ts';
import { listDeadLetters } from './consumer/deadLetters.ts';
import { listParkedWork, replayParkedWork, type ParkedItem, type ParkedSource } from './parkedWork.ts';

export const WORK_REPLAY_USAGE = `Usage: npm run work:replay -- [--service <${SERVICES.join('|')}>] [--kind <${PARKED_KINDS.join('|')}>] [--queue <name>] [--group <consumer group>] [--list] [key]...
  Lists (--list) or replays the work a service parked: its queues' parked jobs, its outbox's parked
  events, its consumers' dead letters (put back on their topics through the outbox). Without
  --service: every service; without --kind: every kind (a queue whose parked jobs are final is only
  listed). Keys (a job's key, an outbox seq, a dead letter's event id, as --list shows them) pick
  some, with --kind; --queue names a queue (--kind queue), --group a consumer group (--kind dead_letters).
  Reads each service's database from <SERVICE>_DATABASE_URL, DATABASE_URL or DATA_DIR, like the
  service; with the embedded database, stop the product first. The admin panel's Parked work tab
  does the same on a running product.`;

const nameOf = (source: ParkedSource) => (source.kind === 'queue' ? source.queue : source.kind === 'outbox' ? 'outbox' : 'dead letters');

function line(item: ParkedItem): string {
  const parked = item.parkedAt ? `parked ${new Date(item.parkedAt).toISOString()}` : 'parked';
  const attempts = item.attempts === null ? '' : `  attempts=${item.attempts}`;
  const final = item.replayable ? '' : '  (final: not replayable)';
  return `${item.source.kind}  ${nameOf(item.source)}  ${item.key}  ${item.what}${attempts}  ${parked}${final}  ${(item.error ?? '').split('\n')[0]}`;
}

interface Selection {
  kind?: ParkedKind;
  queue?: string;
  group?: string;
  keys?: string[];
}

/** The sources a replay goes over: the one named, or every replayable one of the service. */
function sourcesOf(queues: readonly QueueDeclaration[], selection: Selection): ParkedSource[] {
  const all: ParkedSource[] = [
    ...queues.filter((queue) => queue.unpark && (!selection.queue || queue.queue === selection.queue)).map((queue): ParkedSource => ({ kind: 'queue', queue: queue.queue })),
    ...(selection.queue ? [] : [{ kind: 'outbox' } as const, { kind: 'dead_letters' } as const]),
  ];
  return all.filter((source) => !selection.kind || source.kind === selection.kind);
}

async function oneService(db: Db, service: ServiceName, queues: readonly QueueDeclaration[], selection: Selection, list: boolean, out: (line: string) => void): Promise<void> {
  const wanted = (item: ParkedItem) => (!selection.kind || item.source.kind === selection.kind)
    && (!selection.queue || (item.source.kind === 'queue' && item.source.queue === selection.queue))
    && (!selection.keys || selection.keys.includes(item.key));
  let items = (await listParkedWork(db, queues)).filter(wanted);
  if (selection.group) {
    const ofGroup = new Set((await listDeadLetters(db, { group: selection.group })).map((letter) => letter.eventId));
    items = items.filter((item) => ofGroup.has(item.key));
  }
  if (list) {
    for (const item of items) out(line(item));
    out(`${items.length} piece(s) of parked work in ${service}`);
    return;
  }
  if (selection.queue && !queues.some((queue) => queue.queue === selection.queue)) {
    out(`${service} has no queue named ${selection.queue}${queues.length ? ` (it has ${queues.map((queue) => queue.queue).join(', ')})` : ''}`);
    return;
  }
  if (selection.queue && !queues.find((queue) => queue.queue === selection.queue)?.unpark) {
    out(`${service}'s ${selection.queue} queue keeps its parked jobs for good: they are listed, never replayed`);
    return;
  }
  for (const source of sourcesOf(queues, selection)) {
    // With keys or a group, only the pieces picked; else all of the source.
    const keys = selection.keys || selection.group ? items.filter((item) => nameOf(item.source) === nameOf(source)).map((item) => item.key) : undefined;
    const { replayed, kept } = await replayParkedWork(db, service, queues, source, keys);
    if (replayed || kept.length) out(`${service} ${nameOf(source)}: ${replayed} replayed${kept.length ? `; ${kept.length} hold no event envelope and stay parked: ${kept.join(', ')}` : ''}`);
  }
  out(`${service}: replay done; its running workers and relay pick the work up (at their next poll when the product runs elsewhere)`);
}

/** `npm run work:replay`, given each service's queues (their definitions'); returns the exit code. */
export async function runWorkReplayCommand(
  args: string[], env: NodeJS.ProcessEnv, out: (line: string) => void, queuesOf: Partial<Record<ServiceName, readonly QueueDeclaration[]>>,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { service: { type: 'string' }, kind: { type: 'string' }, queue: { type: 'string' }, group: { type: 'string' }, list: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    out(`${(error as Error).message}\n${WORK_REPLAY_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const service = values.service as ServiceName | undefined;
  const kind = (values.kind ?? (values.queue ? 'queue' : values.group ? 'dead_letters' : undefined)) as ParkedKind | undefined;
  const problem = service !== undefined && !SERVICES.includes(service) ? `There is no service named ${service}.`
    : kind !== undefined && !PARKED_KINDS.includes(kind) ? `--kind must be one of ${PARKED_KINDS.join(', ')}.`
      : values.queue && kind !== 'queue' ? '--queue goes with --kind queue.'
        : values.group && kind !== 'dead_letters' ? '--group goes with --kind dead_letters.'
          : positionals.length && !kind ? 'Keys need --kind: a key names a piece of work of one kind.'
            : undefined;
  if (problem) {
    out(`${problem}\n${WORK_REPLAY_USAGE}`);
    return 2;
  }
  const selection: Selection = { kind, queue: values.queue, group: values.group, keys: positionals.length ? positionals : undefined };
  let found = 0;
  for (const name of service ? [service] : SERVICES) {
    // Over every service, a queue named is looked for where it is.
    if (!service && selection.queue && !queuesOf[name]?.some((queue) => queue.queue === selection.queue)) continue;
    const config = loadKitConfig(name, env);
    const db = openDatabase({ service: name, url: config.databaseUrl, dataDir: config.dataDir === ':memory:' ? undefined : config.dataDir });
    try {
      if (!(await db.schema.hasTable('kit_dead_letters'))) {
        out(`The ${name} database (${config.databaseUrl ? 'from the database URL' : `under ${config.dataDir}`}) has no parked-work tables: has the service run against it?`);
        continue;
      }
      found++;
      await oneService(db, name, queuesOf[name] ?? [], selection, Boolean(values.list), out);
    } finally {
      await db.destroy();
    }
  }
  return found ? 0 : 1;
}

// `npm run work:replay -- [--service <name>] [--kind <kind>] [--queue <q>] [--group <g>] [--list] [key]...` (see WORK_REPLAY_USAGE).
import { runWorkReplayCommand } from '@leadforge/kit/events';
import { SERVICE_DEFINITIONS } from '../services.ts';

const queuesOf = Object.fromEntries(SERVICE_DEFINITIONS.map((def) => [def.name, def.queues ?? []]));
process.exitCode = await runWorkReplayCommand(process.argv.slice(2), process.env, (line) => console.log(line), queuesOf);

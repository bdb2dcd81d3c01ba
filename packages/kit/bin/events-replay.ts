// `npm run events:replay -- --service <name> [--group <g>] [--event <id>]... [--list]` (see REPLAY_USAGE).
import { runReplayCommand } from '../src/events/consumer/replayCommand.ts';

process.exitCode = await runReplayCommand(process.argv.slice(2), process.env, (line) => console.log(line));

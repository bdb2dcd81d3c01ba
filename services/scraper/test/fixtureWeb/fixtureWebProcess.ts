// The fixture web in a child process of its own: so a benchmark counts only the product's CPU, and so
// it can run inside another network namespace (a local cluster's, beside its pods).
//   startFixtureWebProcess(options, { netns })  ->  { port, urls, stop() }
// Run as a script (by startFixtureWebProcess), it starts the web with the options in FIXTURE_WEB_OPTIONS
// and prints its address as one JSON line.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { startFixtureWeb, type FixtureWeb, type FixtureWebOptions } from './fixtureWeb.ts';

const SELF = new URL(import.meta.url).pathname;

export interface FixtureWebProcess extends Pick<FixtureWeb, 'port' | 'origin' | 'urls'> {
  /** Ends the process; resolves once it has exited (a process still in a namespace keeps it alive). */
  stop(): Promise<void>;
}

export async function startFixtureWebProcess(options: FixtureWebOptions, where: { netns?: string } = {}): Promise<FixtureWebProcess> {
  const node = [process.execPath, '--import', 'tsx', SELF];
  // nsenter enters the namespace alone: the process keeps this machine's files and the caller's environment.
  const [command, ...args] = where.netns ? ['nsenter', `--net=${where.netns}`, '--', ...node] : node;
  const child = spawn(command!, args, {
    env: { ...process.env, FIXTURE_WEB_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixture web exited with ${code}`)));
  });
  const { port, origin, urls } = JSON.parse(line) as FixtureWebProcess;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // A client holding a keep-alive connection would keep close() waiting: it gets a few seconds, then SIGKILL.
    const killLater = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killLater);
  };
  return { port, origin, urls, stop };
}

if (process.argv[1] === SELF && process.env.FIXTURE_WEB_OPTIONS) {
  const web = await startFixtureWeb(JSON.parse(process.env.FIXTURE_WEB_OPTIONS));
  console.log(JSON.stringify({ port: web.port, origin: web.origin, urls: web.urls }));
  process.on('SIGTERM', () => void web.close().then(() => process.exit(0)));
}
